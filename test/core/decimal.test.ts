import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalDecimal,
  decimalWordsFit,
  DECIMAL_MALFORMED,
  DECIMAL_OVERFLOW,
  formatDecimal,
  formatDecimalWords,
  parseDecimal,
  parseDecimalWords,
  writeDecimalWords,
  wordsToBigInt,
} from '../../src/core/decimal.js';
import { isFieldFailure } from '../../src/core/field-failure.js';

const D38_18 = { precision: 38, scale: 18 };

/** Decimal text that fits DECIMAL(38,18): up to 20 integer digits, up to 18 fractional digits. */
const fitting = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,18}$/), { nil: undefined }),
  )
  .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);

function exact(text: string, scale: number): bigint {
  const neg = text.startsWith('-');
  const [int, frac = ''] = (neg ? text.slice(1) : text).split('.');
  const v = BigInt(int! + frac.padEnd(scale, '0').slice(0, scale));
  return neg ? -v : v;
}

describe('decimal', () => {
  it('keeps the documented hard cases exact', () => {
    expect(canonicalDecimal('0.000018712345600000')).toBe('0.0000187123456');
    expect(canonicalDecimal('123456789012345.123456789012345678')).toBe('123456789012345.123456789012345678');
    expect(canonicalDecimal('100000.00')).toBe('100000');
    expect(canonicalDecimal('-0.000')).toBe('0');
    expect(canonicalDecimal('007.50')).toBe('7.5');
    expect(canonicalDecimal('91532.01')).toBe('91532.01');
    expect(parseDecimal('123456789012345.123456789012345678')).toBe(123456789012345123456789012345678n);
    expect(parseDecimal('99999999999999999999.999999999999999999')).toBe(10n ** 38n - 1n);
    expect(parseDecimal('-99999999999999999999.999999999999999999')).toBe(-(10n ** 38n - 1n));
  });

  it.each(['', '1e5', 'NaN', 'Infinity', '1.2.3', ' 1', '1 ', '+1', '+-1', '-', '.5', '5.', '0x10', '1,5', '١'])('rejects %j as malformed', (text) => {
    const r = canonicalDecimal(text);
    expect(isFieldFailure(r)).toBe(true);
    expect(isFieldFailure(r) && r.code).toBe(DECIMAL_MALFORMED);
    expect(isFieldFailure(r) && r.reason).toContain(JSON.stringify(text));
  });

  it('rejects overflow instead of rounding', () => {
    const tooPrecise = canonicalDecimal('0.0000000000000000001');
    expect(isFieldFailure(tooPrecise) && tooPrecise.code).toBe(DECIMAL_OVERFLOW);
    expect(isFieldFailure(tooPrecise) && tooPrecise.reason).toContain('19 fractional digits');
    const tooBig = canonicalDecimal('100000000000000000000');
    expect(isFieldFailure(tooBig) && tooBig.code).toBe(DECIMAL_OVERFLOW);
    expect(isFieldFailure(tooBig) && tooBig.reason).toContain('21 integer digits');
    // trailing zeros beyond the scale are not digits of the value
    expect(canonicalDecimal('1.5000000000000000000000000')).toBe('1.5');
    const narrow = canonicalDecimal('12.345', { precision: 5, scale: 2 });
    expect(isFieldFailure(narrow) && narrow.code).toBe(DECIMAL_OVERFLOW);
  });

  it('property: fitting text round-trips through words and canonical text exactly', () => {
    const words = new Uint32Array(8);
    fc.assert(
      fc.property(fitting, (text) => {
        const canonical = canonicalDecimal(text, D38_18);
        expect(typeof canonical).toBe('string');
        expect(writeDecimalWords(canonical as string, 18, words, 4)).toBe(true);
        const value = wordsToBigInt(words, 4);
        expect(value).toBe(exact(text, 18));
        expect(formatDecimalWords(words, 4, 18)).toBe(canonical);
        expect(parseDecimal(canonical as string)).toBe(value);
        expect(canonicalDecimal(canonical as string)).toBe(canonical);
        // the raw text itself converts to the same words
        expect(writeDecimalWords(text, 18, words, 0)).toBe(true);
        expect(wordsToBigInt(words, 0)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: never rounds; too many fractional or integer digits are rejected', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 38 }).chain((p) => fc.tuple(fc.constant(p), fc.integer({ min: 0, max: p }))),
        fitting,
        ([precision, scale], text) => {
          const r = canonicalDecimal(text, { precision, scale });
          const neg = text.startsWith('-');
          const [int, frac = ''] = (neg ? text.slice(1) : text).split('.');
          const fracDigits = frac.replace(/0+$/, '').length;
          const intDigits = int!.replace(/^0+/, '').length;
          const fits = fracDigits <= scale && intDigits <= precision - scale;
          if (fits) {
            expect(typeof r).toBe('string');
            expect(parseDecimal(text, { precision, scale })).toBe(exact(text, scale));
          } else {
            expect(isFieldFailure(r) && r.code).toBe(DECIMAL_OVERFLOW);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: formatDecimal is the inverse of parseDecimal over the whole DECIMAL(38,18) range', () => {
    const max = 10n ** 38n - 1n;
    fc.assert(
      fc.property(fc.bigInt({ min: -max, max }), (v) => {
        const text = formatDecimal(v, 18);
        expect(parseDecimal(text)).toBe(v);
        const words = new Uint32Array(4);
        expect(writeDecimalWords(text, 18, words, 0)).toBe(true);
        expect(wordsToBigInt(words)).toBe(v);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: the short-value path (<= 15 digits, <= 18 padding zeros) is exact at every scale', () => {
    const words = new Uint32Array(4);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 38 }),
        fc.boolean(),
        (digits, fracDigits, scale, neg) => {
          const body = digits.toString().padStart(fracDigits + 1, '0');
          const int = body.slice(0, body.length - fracDigits);
          const text = `${neg ? '-' : ''}${fracDigits > 0 ? `${int}.${body.slice(int.length)}` : int}`;
          const ok = writeDecimalWords(text, scale, words, 0);
          if (fracDigits > scale) return;
          const unscaled = digits * 10n ** BigInt(scale - fracDigits);
          // the magnitude must leave the sign bit free
          expect(ok).toBe(unscaled < 1n << 127n);
          if (ok) expect(wordsToBigInt(words)).toBe(neg ? -unscaled : unscaled);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('writeDecimalWords refuses what does not fit 128 bits or the scale', () => {
    const words = new Uint32Array(4);
    expect(writeDecimalWords('1' + '0'.repeat(40), 0, words, 0)).toBe(false);
    expect(writeDecimalWords('1.23', 1, words, 0)).toBe(false);
    expect(writeDecimalWords('1.20', 1, words, 0)).toBe(true);
    expect(wordsToBigInt(words)).toBe(12n);
    expect(writeDecimalWords('abc', 2, words, 0)).toBe(false);
  });

  it('property: parseDecimalWords agrees with canonicalDecimal + writeDecimalWords on any text and type', () => {
    // Wire-like text with the awkward cases mixed in: signs, leading and trailing zeros, stray characters.
    const piece = fc.constantFrom('0', '00', '7', '1', '9', '5', '123', '000', '999999999', '.', '-', 'e', ' ', '+');
    const text = fc.oneof(fitting, fc.array(piece, { minLength: 0, maxLength: 8 }).map((p) => p.join('')), fitting.map((t) => `${t}000`), fitting.map((t) => `0${t}`));
    const type = fc.integer({ min: 1, max: 38 }).chain((precision) => fc.record({ precision: fc.constant(precision), scale: fc.integer({ min: 0, max: precision }) }));
    const fused = new Uint32Array(4);
    const twoPass = new Uint32Array(4);
    fc.assert(
      fc.property(text, type, (t, ty) => {
        const expected = canonicalDecimal(t, ty);
        const got = parseDecimalWords(t, ty, fused, 0);
        expect(got).toEqual(expected);
        if (typeof expected === 'string') {
          expect(writeDecimalWords(expected, ty.scale, twoPass, 0)).toBe(true);
          expect([...fused]).toEqual([...twoPass]);
        }
      }),
      { numRuns: 20000 },
    );
  });

  it('parseDecimalWords canonicalises in the same pass', () => {
    const words = new Uint32Array(4);
    expect(parseDecimalWords('91000.00', D38_18, words, 0)).toBe('91000');
    expect(wordsToBigInt(words)).toBe(91000n * 10n ** 18n);
    expect(parseDecimalWords('-1.50', D38_18, words, 0)).toBe('-1.5');
    expect(wordsToBigInt(words)).toBe(-15n * 10n ** 17n);
    expect(parseDecimalWords('-0.000', D38_18, words, 0)).toBe('0');
    expect(wordsToBigInt(words)).toBe(0n);
    expect(parseDecimalWords('0.000018712345', D38_18, words, 0)).toBe('0.000018712345');
    expect(wordsToBigInt(words)).toBe(18712345n * 10n ** 6n);
    const tooPrecise = parseDecimalWords('1.234', { precision: 10, scale: 2 }, words, 0);
    expect(isFieldFailure(tooPrecise) && tooPrecise.code).toBe(DECIMAL_OVERFLOW);
  });

  it('property: decimalWordsFit says whether a 128-bit value has at most p digits, exactly at 10^p', () => {
    const words = new Uint32Array(4);
    const put = (v: bigint) => {
      const u = BigInt.asUintN(128, v);
      for (let w = 0; w < 4; w++) words[w] = Number((u >> BigInt(32 * w)) & 0xffffffffn);
    };
    const near = fc.integer({ min: 1, max: 38 }).chain((p) =>
      fc.tuple(fc.constant(p), fc.oneof(fc.bigInt({ min: -3n, max: 3n }).map((d) => 10n ** BigInt(p) - 1n + d), fc.bigInt({ min: -(10n ** 38n), max: 10n ** 38n })), fc.boolean()),
    );
    fc.assert(
      fc.property(near, ([p, magnitude, neg]) => {
        const v = neg ? -magnitude : magnitude;
        if (v >= 1n << 127n || v < -(1n << 127n)) return;
        put(v);
        expect(decimalWordsFit(words, 0, p)).toBe((v < 0n ? -v : v) < 10n ** BigInt(p));
      }),
      { numRuns: 2000, seed: 12 },
    );
    put(-(1n << 127n));
    expect(decimalWordsFit(words, 0, 38)).toBe(false);
  });
});
