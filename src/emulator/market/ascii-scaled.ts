/**
 * Scaled-integer decimals written straight into bytes: the same text as `formatScaled`, without a
 * string per value. The /kline hot path writes seven numbers per bar, 500 bars per page; building
 * them as strings and then encoding them cost more than computing the bars.
 */

const DOT = 0x2e;
const ZERO = 0x30;
/** `formatScaled` pads with at most this many zeros after "0." (its ZEROS constant). */
const MAX_PAD = 30;

/** "00".."99" as byte pairs: two digits per division. */
const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = ZERO + Math.floor(i / 10);
  PAIRS[2 * i + 1] = ZERO + (i % 10);
}

/** How many decimal digits a non-negative safe integer has. */
function digitCount(n: number): number {
  if (n < 1e8) {
    if (n < 1e4) return n < 100 ? (n < 10 ? 1 : 2) : n < 1000 ? 3 : 4;
    return n < 1e6 ? (n < 1e5 ? 5 : 6) : n < 1e7 ? 7 : 8;
  }
  let len = 9;
  for (let p = 1e9; n >= p && len < 16; p *= 10) len++;
  return len;
}

/** Writes the digits of x (an integer below 2^31) so they end just before `end`; returns where they start. */
function writeSmall(out: Uint8Array, end: number, x: number): number {
  let p = end;
  while (x >= 100) {
    const q = (x / 100) | 0;
    const r = (x - q * 100) << 1;
    out[--p] = PAIRS[r + 1]!;
    out[--p] = PAIRS[r]!;
    x = q;
  }
  if (x >= 10) {
    const r = x << 1;
    out[--p] = PAIRS[r + 1]!;
    out[--p] = PAIRS[r]!;
  } else out[--p] = ZERO + x;
  return p;
}

/** Writes the digits of a non-negative safe integer so they end just before `end`. */
function writeDigits(out: Uint8Array, end: number, n: number): void {
  if (n < 2147483648) {
    writeSmall(out, end, n);
    return;
  }
  // Split so each part stays on 32-bit integer arithmetic: n < 2^53, so n / 1e9 < 2^24.
  const hi = Math.floor(n / 1e9);
  let lo = n - hi * 1e9;
  let p = end;
  for (let i = 0; i < 4; i++) {
    const q = (lo / 100) | 0;
    const r = (lo - q * 100) << 1;
    out[--p] = PAIRS[r + 1]!;
    out[--p] = PAIRS[r]!;
    lo = q;
  }
  out[--p] = ZERO + lo;
  writeSmall(out, p, hi);
}

/**
 * Writes `formatScaled(n, decimals)` (n a non-negative safe integer) at `pos`; returns the position
 * after it. The caller provides the room (at most 16 + 2 + 30 bytes).
 */
export function writeScaled(out: Uint8Array, pos: number, n: number, decimals: number): number {
  const len = digitCount(n);
  if (decimals === 0) {
    writeDigits(out, pos + len, n);
    return pos + len;
  }
  if (len > decimals) {
    // All digits one place to the right, then the integer part back left of the point.
    const end = pos + len + 1;
    writeDigits(out, end, n);
    const point = pos + len - decimals;
    for (let i = pos; i < point; i++) out[i] = out[i + 1]!;
    out[point] = DOT;
    return end;
  }
  out[pos++] = ZERO;
  out[pos++] = DOT;
  for (let i = Math.min(MAX_PAD, decimals - len); i > 0; i--) out[pos++] = ZERO;
  writeDigits(out, pos + len, n);
  return pos + len;
}

/** The most bytes `writeScaled` takes for any value from 0 to `max` with these decimals. */
export function scaledLength(max: number, decimals: number): number {
  const len = digitCount(max);
  return decimals === 0 ? len : Math.max(len + 1, 2 + decimals);
}

/** The bytes of an ASCII text, for the constant parts of a template. */
export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) throw new RangeError(`not ASCII: ${text}`);
    out[i] = c;
  }
  return out;
}

/** Copies `bytes` to `out` at `pos`; returns the position after them (a loop: these are short). */
export function writeBytes(out: Uint8Array, pos: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) out[pos++] = bytes[i]!;
  return pos;
}
