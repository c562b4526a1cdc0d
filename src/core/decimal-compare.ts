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

/** Whether a decimal text is below zero (-0 is not). */
export function isNegativeDecimal(text: string): boolean {
  return compareDecimal(text, '0') < 0;
}
