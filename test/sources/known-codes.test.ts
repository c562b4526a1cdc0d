import { describe, expect, it } from 'vitest';
import { depthSnapshot, depthSnapshotConfigSchema } from '../../src/sources/depth-snapshot/index.js';
import { klineLatest, klineLatestConfigSchema } from '../../src/sources/kline-latest/index.js';
import { CODE_PATTERN, lintKnownCodes, suggestCode } from '../../src/sources/shared/known-codes.js';
import { tradeSnapshot, tradeSnapshotConfigSchema } from '../../src/sources/trade-snapshot/index.js';

describe('known codes: one check for every source', () => {
  it('suggests the catalog code by case, by market suffix and by a near miss', () => {
    expect(suggestCode('btcusdt')).toBe('BTCUSDT');
    expect(suggestCode('silver')).toBe('Silver');
    expect(suggestCode('aapl')).toBe('AAPL.US');
    expect(suggestCode('BTCUSD')).toBe('BTCUSDT');
    expect(suggestCode('FOOBAR')).toBeUndefined();
  });

  it('refuses what cannot be a code', () => {
    for (const bad of ['', '..', '.US', 'AAPL.', 'A..B', 'a b', 'a/b', '../x', 'A\\B']) expect(CODE_PATTERN.test(bad), bad).toBe(false);
    for (const good of ['BTCUSDT', 'AAPL.US', '600000.SH', 'Silver', '5.HK']) expect(CODE_PATTERN.test(good), good).toBe(true);
    expect(tradeSnapshotConfigSchema.safeParse({ codes: ['..'] }).success).toBe(false);
  });

  it('every source that takes codes lints the same way', () => {
    const expected = [{ path: ['codes', 1], message: 'unknown product code "ethusdt"; did you mean "ETHUSDT"?' }];
    expect(tradeSnapshot.lint!(tradeSnapshotConfigSchema.parse({ codes: ['BTCUSDT', 'ethusdt'] }))).toEqual(expected);
    expect(depthSnapshot.lint!(depthSnapshotConfigSchema.parse({ codes: ['BTCUSDT', 'ethusdt'] }))).toEqual(expected);
    expect(klineLatest.lint!(klineLatestConfigSchema.parse({ codes: ['BTCUSDT', 'ethusdt'], intervals: ['1m'] }))).toEqual(expected);
  });

  it('codesOutsideCatalog lets only declared, non-catalog codes through', () => {
    expect(depthSnapshot.lint!(depthSnapshotConfigSchema.parse({ codes: ['BTCUSDT', 'NOSUCH'], codesOutsideCatalog: ['NOSUCH'] }))).toEqual([]);
    expect(lintKnownCodes(['NOSUCH'], 'codes', [])).toHaveLength(1);
    expect(lintKnownCodes(['BTCUSDT'], 'codes', ['BTCUSDT'])).toEqual([
      { path: ['codesOutsideCatalog', 0], message: '"BTCUSDT" is in the product catalog; list it in codes only' },
    ]);
    expect(lintKnownCodes(['ethusdt'], 'codes', ['ethusdt'])).toEqual([
      { path: ['codesOutsideCatalog', 0], message: '"ethusdt" is the catalog\'s "ETHUSDT" in another case; codes are case-sensitive' },
    ]);
  });

  it('a code declared outside the catalog but not in codes is a finding at its entry: it would never be requested', () => {
    expect(depthSnapshot.lint!(depthSnapshotConfigSchema.parse({ codes: ['BTCUSDT', 'NOSUCH'], codesOutsideCatalog: ['NOSUCH', 'NOPE1'] }))).toEqual([
      { path: ['codesOutsideCatalog', 1], message: '"NOPE1" is in codesOutsideCatalog but not in codes: add it to codes (or remove it here)' },
    ]);
  });
});
