/** The order of decimals without a JS number: texts, and the 128-bit words the hot path compares. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimal, compareWords128, isNegativeDecimal } from '../../src/core/decimal-compare.js';

const sign = (n: bigint) => (n < 0n ? -1 : n > 0n ? 1 : 0);
const int128 = fc.bigInt({ min: -(1n << 127n), max: (1n << 127n) - 1n });

function put(words: Uint32Array, at: number, v: bigint): void {
  const u = BigInt.asUintN(128, v);
  for (let i = 0; i < 4; i++) words[at + i] = Number((u >> BigInt(32 * i)) & 0xffffffffn);
}

describe('decimal order', () => {
  it('property: compareWords128 orders signed 128-bit words as the integers they hold', () => {
    const words = new Uint32Array(8);
    const near = fc.oneof(int128, fc.bigInt({ min: -5n, max: 5n }), fc.constantFrom(-(1n << 127n), (1n << 127n) - 1n, -(1n << 64n), 1n << 64n));
    fc.assert(
      fc.property(near, near, (a, b) => {
        put(words, 0, a);
        put(words, 4, b);
        expect(compareWords128(words, 0, 4)).toBe(sign(a - b));
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('property: isNegativeDecimal agrees with compareDecimal against zero, -0 included', () => {
    const text = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,20}$/), fc.option(fc.stringMatching(/^[0-9]{1,18}$/), { nil: undefined }))
      .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);
    fc.assert(fc.property(text, (t) => {
        expect(isNegativeDecimal(t)).toBe(compareDecimal(t, '0') < 0);
      }), { numRuns: 2000, seed: 12 });
    expect(isNegativeDecimal('-0.000')).toBe(false);
    expect(isNegativeDecimal('-0.001')).toBe(true);
  });
});
