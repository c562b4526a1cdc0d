/**
 * Order of two decimal texts (`[-]digits[.digits]`, as canonicalDecimal returns), without a JS
 * number (values beyond 2^53 or with 18 decimals must compare exactly) and without bigints (hot path).
 */
export function compareDecimal(a: string, b: string): number {
  const x = split(a);
  const y = split(b);
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  const magnitude = compareMagnitude(x, y);
  return x.neg ? -magnitude : magnitude;
}

interface Parts {
  neg: boolean;
  int: string;
  frac: string;
}

function split(text: string): Parts {
  let neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const dot = body.indexOf('.');
  const int = (dot < 0 ? body : body.slice(0, dot)).replace(/^0+/, '');
  const frac = (dot < 0 ? '' : body.slice(dot + 1)).replace(/0+$/, '');
  // -0 is 0: the sign of zero must not order it below +0.
  if (int === '' && frac === '') neg = false;
  return { neg, int, frac };
}

function compareMagnitude(x: Parts, y: Parts): number {
  if (x.int.length !== y.int.length) return x.int.length < y.int.length ? -1 : 1;
  if (x.int !== y.int) return x.int < y.int ? -1 : 1;
  if (x.frac === y.frac) return 0;
  const n = Math.max(x.frac.length, y.frac.length);
  const fx = x.frac.padEnd(n, '0');
  const fy = y.frac.padEnd(n, '0');
  return fx < fy ? -1 : fx > fy ? 1 : 0;
}

/** Whether a decimal text is below zero (-0 is not): a sign and any non-zero digit, in one scan. */
export function isNegativeDecimal(text: string): boolean {
  if (text.charCodeAt(0) !== 45 /* - */) return false;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 48 && c <= 57) return true;
  }
  return false;
}

/**
 * Order of two signed 128-bit values stored as four little-endian 32-bit words each (as
 * parseDecimalWords writes them), at offsets `a` and `b`: the hot-path twin of compareDecimal for
 * two values of one scale, with no text and no allocation.
 */
export function compareWords128(words: Uint32Array, a: number, b: number): number {
  const ha = words[a + 3]! | 0;
  const hb = words[b + 3]! | 0;
  if (ha !== hb) return ha < hb ? -1 : 1;
  for (let i = 2; i >= 0; i--) {
    const x = words[a + i]!;
    const y = words[b + i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
