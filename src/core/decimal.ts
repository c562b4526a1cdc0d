/**
 * Exact decimals for DECIMAL(precision, scale) columns. Never a JS number, never a rounding.
 *
 * Accepted text: an optional leading `-`, one or more ASCII digits, optionally `.` and one or more
 * digits. Rejected as malformed: "", a leading `+` (the service never sends one, so a `+` signals
 * a corrupted feed), whitespace, exponents ("1e5"), "NaN"/"Infinity", ".5", "5.", "1.2.3".
 * Leading integer zeros and trailing fractional zeros are accepted and dropped: they change no value.
 * A value fits DECIMAL(p,s) when it has at most p-s significant integer digits and at most s
 * fractional digits after trailing zeros are dropped; otherwise it is an overflow, never rounded.
 *
 * In memory a validated decimal travels as its canonical text (`DecimalString`); sinks turn it into
 * 128-bit two's-complement words for Arrow Decimal128 with `writeDecimalWords`, which does the
 * arithmetic in 24-bit (common case) or 16-bit limbs on plain numbers (no BigInt per value).
 */
import { fieldFailure, quoteValue, type FieldFailure } from './field-failure.js';

export interface DecimalType {
  readonly precision: number;
  readonly scale: number;
}

/** Fits every product of the service: 20 integer digits (turnovers above 10^15) and 18 decimals. */
export const DEFAULT_DECIMAL: DecimalType = Object.freeze({ precision: 38, scale: 18 });

/** The largest precision a 128-bit decimal holds. */
export const MAX_DECIMAL128_PRECISION = 38;

/**
 * Canonical decimal text: `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, never `-0`.
 * A plain string at run time; the brand only documents that it was validated.
 */
export type DecimalString = string & { readonly __decimal?: never };

export const DECIMAL_MALFORMED = 'QL_DECIMAL_MALFORMED';
export const DECIMAL_OVERFLOW = 'QL_DECIMAL_OVERFLOW';

export function assertDecimalType(type: DecimalType): void {
  const { precision, scale } = type;
  if (!Number.isInteger(precision) || precision < 1 || precision > MAX_DECIMAL128_PRECISION) {
    throw new RangeError(`decimal precision must be 1..${MAX_DECIMAL128_PRECISION}, got ${precision}`);
  }
  if (!Number.isInteger(scale) || scale < 0 || scale > precision) {
    throw new RangeError(`decimal scale must be 0..precision (${precision}), got ${scale}`);
  }
}

function malformed(text: string, why: string): FieldFailure {
  return fieldFailure(DECIMAL_MALFORMED, `${quoteValue(text)} is not a decimal (${why})`);
}

/**
 * Validate `text` against DECIMAL(p,s) and return its canonical form, or why it does not fit.
 * Returns the input string itself (no allocation) when it is already canonical.
 */
export function canonicalDecimal(text: string, type: DecimalType = DEFAULT_DECIMAL): DecimalString | FieldFailure {
  const n = text.length;
  if (n === 0) return malformed(text, 'empty');
  let i = 0;
  let neg = false;
  if (text.charCodeAt(0) === 45 /* - */) {
    neg = true;
    i = 1;
  }
  const intStart = i;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  const intEnd = i;
  // "+1.5", " 1.5": the sign or blank is what is wrong, not a lack of digits (".5" lacks them).
  if (intEnd === intStart) return malformed(text, i < n && text.charCodeAt(i) !== 46 /* . */ ? `unexpected character at ${i}` : 'no integer digits');
  let fracStart = i;
  let fracEnd = i;
  let hasPoint = false;
  if (i < n) {
    if (text.charCodeAt(i) !== 46 /* . */) return malformed(text, `unexpected character at ${i}`);
    hasPoint = true;
    i++;
    fracStart = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      i++;
    }
    fracEnd = i;
    if (fracEnd === fracStart) return malformed(text, 'no digits after the point');
    if (i < n) return malformed(text, `unexpected character at ${i}`);
  }
  let is = intStart;
  while (is < intEnd - 1 && text.charCodeAt(is) === 48) is++;
  let fe = fracEnd;
  while (fe > fracStart && text.charCodeAt(fe - 1) === 48) fe--;
  const fracDigits = fe - fracStart;
  const intZero = intEnd - is === 1 && text.charCodeAt(is) === 48;
  const intDigits = intZero ? 0 : intEnd - is;
  if (fracDigits > type.scale) {
    return fieldFailure(
      DECIMAL_OVERFLOW,
      `${quoteValue(text)} has ${fracDigits} fractional digits, DECIMAL(${type.precision},${type.scale}) keeps ${type.scale} (no rounding)`,
    );
  }
  if (intDigits > type.precision - type.scale) {
    return fieldFailure(
      DECIMAL_OVERFLOW,
      `${quoteValue(text)} has ${intDigits} integer digits, DECIMAL(${type.precision},${type.scale}) allows ${type.precision - type.scale}`,
    );
  }
  const zero = intDigits === 0 && fracDigits === 0;
  if ((!neg || !zero) && is === intStart && fe === fracEnd && (fracDigits > 0 || !hasPoint)) return text;
  const int = text.slice(is, intEnd);
  const body = fracDigits > 0 ? `${int}.${text.slice(fracStart, fe)}` : int;
  return neg && !zero ? `-${body}` : body;
}

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];

/**
 * Scratch magnitude in 16-bit limbs (little-endian). Limbs of 16 bits keep limb * 10^9 + carry
 * below 2^47, exact in a double, so no BigInt and no `%` is needed.
 */
const LIMBS = new Float64Array(8);

/** LIMBS = LIMBS * m + add over the `top` limbs in use; returns the new top, or -1 past 128 bits. */
function mulAdd(top: number, m: number, add: number): number {
  const l = LIMBS;
  let carry = add;
  for (let k = 0; k < top; k++) {
    const x = l[k]! * m + carry;
    const c = Math.floor(x / 65536);
    l[k] = x - c * 65536;
    carry = c;
  }
  while (carry > 0) {
    if (top === 8) return -1;
    const c = Math.floor(carry / 65536);
    l[top++] = carry - c * 65536;
    carry = c;
  }
  return top;
}

/**
 * Write the unscaled value of `text` at `scale` as a 128-bit two's-complement integer into
 * words[off..off+3] (Arrow Decimal128 layout). `text` must be valid decimal syntax (for example a
 * `DecimalString`); fractional digits beyond `scale` must be zeros. Returns false (words undefined)
 * when the text is malformed or does not fit; callers validate first, so false means a bug upstream.
 */
export function writeDecimalWords(text: string, scale: number, words: Uint32Array, off: number): boolean {
  return writeSmallDecimalWords(text, scale, words, off) || writeAnyDecimalWords(text, scale, words, off);
}

/** 10^k for k = 0..18 as three 24-bit limbs each (10^18 < 2^60 < 2^72). */
const POW10_LIMBS24 = (() => {
  const t = new Float64Array(19 * 3);
  for (let k = 0; k <= 18; k++) {
    let v = 10n ** BigInt(k);
    for (let j = 0; j < 3; j++) {
      t[k * 3 + j] = Number(v & 0xffffffn);
      v >>= 24n;
    }
  }
  return t;
})();

const P24 = 16777216;
const P48 = 281474976710656;
// Multiplying by a power of two is exact and much cheaper than dividing.
const INV24 = 1 / P24;
const INV48 = 1 / P48;

/**
 * The common case: at most 15 digits (exact in a double) and at most 18 padding zeros. Returns
 * false to defer to the general path.
 */
function writeSmallDecimalWords(text: string, scale: number, words: Uint32Array, off: number): boolean {
  const n = text.length;
  let i = 0;
  let neg = false;
  if (n > 0 && text.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  let v = 0;
  let digits = 0;
  let frac = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (frac >= 0) return false;
      frac = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9 || ++digits > 15) return false;
    if (frac >= 0) frac++;
    v = v * 10 + d;
  }
  if (digits === 0) return false;
  const pad = scale - (frac < 0 ? 0 : frac);
  if (pad < 0 || pad > 18) return false;
  storeScaled(v, pad, neg, words, off);
  return true;
}

/**
 * words[off..off+3] = ±(v * 10^pad) for an integer v < 10^15 and pad <= 18: one 3x3-limb product
 * in base 2^24, every partial sum below 2^51 (exact in a double). Exported for the K-line page
 * scanner, which folds the digits itself while it reads the body.
 */
export function storeScaled(v: number, pad: number, neg: boolean, words: Uint32Array, off: number): void {
  // v < 10^15 < 2^50: limbs a0, a1 < 2^24, a2 < 2^2; 10^pad: b0, b1 < 2^24, b2 < 2^12.
  const a2 = Math.floor(v * INV48);
  const rest = v - a2 * P48;
  const a1 = Math.floor(rest * INV24);
  const a0 = rest - a1 * P24;
  const t = POW10_LIMBS24;
  const b = pad * 3;
  const b0 = t[b]!;
  const b1 = t[b + 1]!;
  const b2 = t[b + 2]!;
  let x = a0 * b0;
  let carry = Math.floor(x * INV24);
  const r0 = x - carry * P24;
  x = a0 * b1 + a1 * b0 + carry;
  carry = Math.floor(x * INV24);
  const r1 = x - carry * P24;
  x = a0 * b2 + a1 * b1 + a2 * b0 + carry;
  carry = Math.floor(x * INV24);
  const r2 = x - carry * P24;
  x = a1 * b2 + a2 * b1 + carry;
  carry = Math.floor(x * INV24);
  const r3 = x - carry * P24;
  const r4 = a2 * b2 + carry; // the product stays below 2^110, so r4 < 2^14
  // Five 24-bit limbs → four 32-bit words.
  storeWords(words, off, neg, r0 + (r1 & 0xff) * P24, (r1 >>> 8) + (r2 & 0xffff) * 65536, (r2 >>> 16) + r3 * 256, r4);
}

/**
 * Validate `text` against DECIMAL(p,s) and, in the same pass, write its unscaled value at `s` into
 * words[off..off+3] (as `writeDecimalWords`). Returns the canonical text (the input itself when it
 * already is) or why it does not fit, exactly as `canonicalDecimal`; on failure the words are
 * undefined. One scan for the common case (at most 15 digits) instead of one to validate and
 * another to convert.
 */
export function parseDecimalWords(text: string, type: DecimalType, words: Uint32Array, off: number): DecimalString | FieldFailure {
  const n = text.length;
  let i = 0;
  let neg = false;
  if (n > 0 && text.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  const intStart = i;
  let v = 0;
  for (; i < n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    v = v * 10 + d;
  }
  const intEnd = i;
  let fracEnd = i;
  let lastNonZero = i; // one past the last non-zero fractional digit
  if (i < n && text.charCodeAt(i) === 46) {
    for (i++; i < n; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      if (d !== 0) lastNonZero = i + 1;
    }
    fracEnd = i;
  }
  const intLen = intEnd - intStart;
  const fracLen = fracEnd > intEnd ? fracEnd - intEnd - 1 : 0;
  const scale = type.scale;
  // Anything unusual (bad syntax, more than 15 digits, more fractional digits than the scale, a
  // leading zero, an integer part too wide for a narrow type) takes the two-pass path, which
  // also words the failure.
  if (
    i !== n ||
    intLen === 0 ||
    (fracEnd > intEnd && fracLen === 0) ||
    intLen + fracLen > 15 ||
    fracLen > scale ||
    scale - fracLen > 18 ||
    intLen > type.precision - scale ||
    (intLen > 1 && text.charCodeAt(intStart) === 48)
  ) {
    const canonical = canonicalDecimal(text, type);
    if (typeof canonical === 'string' && !writeDecimalWords(canonical, scale, words, off)) {
      throw new RangeError(`${quoteValue(text)} validated for DECIMAL(${type.precision},${scale}) but does not fit 128 bits`);
    }
    return canonical;
  }
  storeScaled(v, scale - fracLen, neg, words, off);
  if (v === 0) return '0';
  if (fracLen === 0 || lastNonZero === fracEnd) return text;
  // Trailing fractional zeros: drop them (and the point when nothing is left after it).
  return text.slice(0, lastNonZero > intEnd + 1 ? lastNonZero : intEnd);
}

/** Any length: digits folded in 10^9 chunks into 16-bit limbs. */
function writeAnyDecimalWords(text: string, scale: number, words: Uint32Array, off: number): boolean {
  const n = text.length;
  let i = 0;
  let neg = false;
  if (n > 0 && text.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  let top = 0;
  let chunk = 0;
  let chunkLen = 0;
  let frac = -1; // fractional digits taken so far, -1 before the point
  let digits = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (frac >= 0) return false;
      frac = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return false;
    digits++;
    if (frac >= 0) {
      if (frac === scale) {
        if (d !== 0) return false;
        continue;
      }
      frac++;
    }
    chunk = chunk * 10 + d;
    if (++chunkLen === 9) {
      top = mulAdd(top, 1e9, chunk);
      if (top < 0) return false;
      chunk = 0;
      chunkLen = 0;
    }
  }
  if (digits === 0) return false;
  let pad = scale - (frac < 0 ? 0 : frac);
  // Fold the padding zeros into the open chunk, then whole 10^9 steps.
  while (pad > 0) {
    const k = Math.min(pad, 9 - chunkLen);
    chunk *= POW10[k]!;
    chunkLen += k;
    pad -= k;
    if (chunkLen === 9) {
      top = mulAdd(top, 1e9, chunk);
      if (top < 0) return false;
      chunk = 0;
      chunkLen = 0;
    }
  }
  if (chunkLen > 0) {
    top = mulAdd(top, POW10[chunkLen]!, chunk);
    if (top < 0) return false;
  }
  const l = LIMBS;
  for (let k = top; k < 8; k++) l[k] = 0;
  if (l[7]! >= 0x8000) return false; // the magnitude must leave the sign bit free
  storeWords(words, off, neg, l[0]! + l[1]! * 65536, l[2]! + l[3]! * 65536, l[4]! + l[5]! * 65536, l[6]! + l[7]! * 65536);
  return true;
}

/** Store a 128-bit magnitude as four little-endian 32-bit words, two's complement when negative. */
function storeWords(words: Uint32Array, off: number, neg: boolean, w0: number, w1: number, w2: number, w3: number): void {
  if (neg && (w0 !== 0 || w1 !== 0 || w2 !== 0 || w3 !== 0)) {
    // invert and add one, carrying while a word wraps to zero
    w0 = (~w0 >>> 0) + 1;
    w1 = ~w1 >>> 0;
    w2 = ~w2 >>> 0;
    w3 = ~w3 >>> 0;
    if (w0 === 4294967296) {
      w0 = 0;
      w1 += 1;
      if (w1 === 4294967296) {
        w1 = 0;
        w2 += 1;
        if (w2 === 4294967296) {
          w2 = 0;
          w3 += 1;
        }
      }
    }
  }
  words[off] = w0;
  words[off + 1] = w1;
  words[off + 2] = w2;
  words[off + 3] = w3;
}

/** The signed 128-bit integer stored at words[off..off+3]. */
export function wordsToBigInt(words: Uint32Array, off = 0): bigint {
  const u =
    (BigInt(words[off + 3]!) << 96n) |
    (BigInt(words[off + 2]!) << 64n) |
    (BigInt(words[off + 1]!) << 32n) |
    BigInt(words[off]!);
  return u >= 1n << 127n ? u - (1n << 128n) : u;
}

/** Canonical text of unscaled / 10^scale. */
export function formatDecimal(unscaled: bigint, scale: number): DecimalString {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    const int = digits.slice(0, digits.length - scale);
    let frac = digits.slice(digits.length - scale);
    let end = frac.length;
    while (end > 0 && frac.charCodeAt(end - 1) === 48) end--;
    frac = frac.slice(0, end);
    digits = frac.length > 0 ? `${int}.${frac}` : int;
  }
  return neg ? `-${digits}` : digits;
}

/** Canonical text of a Decimal128 value at words[off..off+3]. */
export function formatDecimalWords(words: Uint32Array, off: number, scale: number): DecimalString {
  return formatDecimal(wordsToBigInt(words, off), scale);
}

/** Parse to the unscaled integer at the type's scale (BigInt; for tests and cold paths). */
export function parseDecimal(text: string, type: DecimalType = DEFAULT_DECIMAL): bigint | FieldFailure {
  const canonical = canonicalDecimal(text, type);
  if (typeof canonical !== 'string') return canonical;
  const neg = canonical.startsWith('-');
  const body = neg ? canonical.slice(1) : canonical;
  const point = body.indexOf('.');
  const int = point < 0 ? body : body.slice(0, point);
  const frac = point < 0 ? '' : body.slice(point + 1);
  const unscaled = BigInt(int + frac.padEnd(type.scale, '0'));
  return neg ? -unscaled : unscaled;
}

/** 10^p as a double, p = 0..38 (exact up to 10^22, within one ulp above). */
const POW10_DOUBLE = Array.from({ length: MAX_DECIMAL128_PRECISION + 1 }, (_, p) => 10 ** p);
const TWO32 = 4294967296;
const TWO64 = TWO32 * TWO32;
const TWO96 = TWO64 * TWO32;

/**
 * Whether the Decimal128 value at words[off..off+3] has at most `precision` digits, i.e. is a valid
 * DECIMAL(precision, s) value whatever s. A double of the magnitude decides unless it lies within
 * a hair of 10^precision; only then is BigInt used. No allocation on the common path.
 */
export function decimalWordsFit(words: Uint32Array, off: number, precision: number): boolean {
  let w0 = words[off]!;
  let w1 = words[off + 1]!;
  let w2 = words[off + 2]!;
  let w3 = words[off + 3]!;
  if (w3 >= 0x80000000) {
    // magnitude of a negative value: invert and add one
    w0 = (~w0 >>> 0) + 1;
    w1 = ~w1 >>> 0;
    w2 = ~w2 >>> 0;
    w3 = ~w3 >>> 0;
    if (w0 === TWO32) {
      w0 = 0;
      if (++w1 === TWO32) {
        w1 = 0;
        if (++w2 === TWO32) {
          w2 = 0;
          w3++;
        }
      }
    }
  }
  const approx = w3 * TWO96 + w2 * TWO64 + w1 * TWO32 + w0;
  const limit = POW10_DOUBLE[precision]!;
  if (approx < limit * (1 - 1e-12)) return true;
  if (approx > limit * (1 + 1e-12)) return false;
  const m = wordsToBigInt(words, off);
  return (m < 0n ? -m : m) < 10n ** BigInt(precision);
}
