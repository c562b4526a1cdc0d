/**
 * Scaled-integer decimals: prices, volumes and turnovers live as integers (value x 10^decimals)
 * and become strings only at the end, so nothing goes through a binary fraction.
 */

const ZEROS = '000000000000000000000000000000';

/** Format a non-negative safe integer scaled by 10^decimals, e.g. (1871, 8) -> "0.00001871". */
export function formatScaled(n: number, decimals: number): string {
  const s = String(n);
  if (decimals === 0) return s;
  if (s.length > decimals) return `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
  return `0.${ZEROS.slice(0, decimals - s.length)}${s}`;
}

/** Same for a BigInt. */
export function formatScaledBig(n: bigint, decimals: number): string {
  const neg = n < 0n;
  const s = (neg ? -n : n).toString();
  let out: string;
  if (decimals === 0) out = s;
  else if (s.length > decimals) out = `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
  else out = `0.${'0'.repeat(decimals - s.length)}${s}`;
  return neg ? `-${out}` : out;
}

/** Parse a plain decimal text into an integer scaled by 10^decimals; throws if it has more decimals. */
export function parseScaled(text: string, decimals: number): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new RangeError(`not a plain decimal: ${text}`);
  const frac = m[2] ?? '';
  if (frac.length > decimals) throw new RangeError(`${text} has more than ${decimals} decimals`);
  return BigInt(m[1]! + frac.padEnd(decimals, '0'));
}

const FLUSH = 2 ** 52;

/**
 * An exact running sum of non-negative integers each below 2^52: adds in a float while that is
 * exact and spills into a BigInt before it stops being so.
 */
export class ExactSum {
  private small = 0;
  private big = 0n;
  add(x: number): void {
    this.small += x;
    if (this.small >= FLUSH) {
      this.big += BigInt(this.small);
      this.small = 0;
    }
  }
  addBig(x: bigint): void {
    this.big += x;
  }
  total(): bigint {
    return this.big + BigInt(this.small);
  }
  reset(): void {
    this.small = 0;
    this.big = 0n;
  }
}
