import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeScaled } from '../../../src/emulator/market/ascii-scaled.js';
import { formatScaled } from '../../../src/emulator/market/scaled.js';

const written = (n: number, decimals: number): string => {
  const out = new Uint8Array(64).fill(0x3f);
  const end = writeScaled(out, 3, n, decimals);
  expect(out[2]).toBe(0x3f); // nothing before `pos`
  expect(out[end]).toBe(0x3f); // nothing after the returned end
  return Buffer.from(out.subarray(3, end)).toString('latin1');
};

describe('writeScaled writes the bytes of formatScaled', () => {
  it('at the edges of every digit count and split', () => {
    const edges = [0, 1, 9, 10, 99, 100, 999_999_999, 1e9, 1e9 + 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 1e15, 2 ** 53 - 1];
    for (const n of edges.flatMap((e) => [e, e + 1, Math.max(0, e - 1)]).filter((v) => v <= Number.MAX_SAFE_INTEGER)) {
      for (const d of [0, 1, 2, 5, 8, 9, 10, 15, 16, 18, 31, 34]) expect(written(n, d), `${n} ${d}`).toBe(formatScaled(n, d));
    }
  });
  it('for any safe integer and scale', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.maxSafeNat()), fc.integer({ min: 0, max: 36 }), (n, d) => {
        expect(written(n, d)).toBe(formatScaled(n, d));
      }),
      { numRuns: 3000 },
    );
  });
});
