import { describe, expect, it } from 'vitest';
import { depthSnapshot, depthSnapshotConfigSchema } from '../../src/sources/depth-snapshot/index.js';
import { klineLatest, klineLatestConfigSchema } from '../../src/sources/kline-latest/index.js';
import { CODE_PATTERN, lintKnownCodes, suggestCode } from '../../src/sources/shared/known-codes.js';
import { tradeSnapshot, tradeSnapshotConfigSchema } from '../../src/sources/trade-snapshot/index.js';
import { components } from '../../src/components.js';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';

/** Each problem of a pipeline file as `line:column: message`. */
function problemsAt(text: string): string[] {
  try {
    parsePipelineYaml(text, { registry: components, file: 'p.yaml' });
  } catch (e) {
    if (!(e instanceof PipelineConfigError)) throw e;
    return e.problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
  }
  return [];
}

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

  it('a code with a blank before or after it is one problem at its place that suggests the code without it, as a typo gets', () => {
    const kline = (codes: string) => `name: t\nsource:\n  type: kline-history\n  codes: ${codes}\n  intervals: [1d]\n  since: 3d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`;
    expect(problemsAt(kline('[BTCUSDT, " EURUSD"]'))).toEqual(['4:20: source.codes[1]: " EURUSD" is not a product code: a blank before it; did you mean "EURUSD"?']);
    expect(problemsAt(kline('["EURUSD "]'))).toEqual(['4:11: source.codes[0]: "EURUSD " is not a product code: a blank after it; did you mean "EURUSD"?']);
    expect(problemsAt(kline('["\\teurusd "]'))).toEqual(['4:11: source.codes[0]: "\\teurusd " is not a product code: blanks before and after it; did you mean "EURUSD"?']);
    // The typo it is compared with: the same help.
    expect(problemsAt(kline('[EURUSX]'))).toEqual(['4:11: source.codes[0]: unknown product code "EURUSX"; did you mean "EURUSD"?']);
    // A blank inside: no code, yet the near one is said in the same message.
    expect(problemsAt(kline('["EUR USD"]'))).toEqual([
      '4:11: source.codes[0]: "EUR USD" is not a product code: letters and digits, optionally joined by single ".", "_" or "-" (e.g. AAPL.US); did you mean "EURUSD"?',
    ]);
    // Said even beside another problem, which stops the catalog check from running.
    expect(problemsAt('name: t\nsource:\n  type: kline-latest\n  codes: [" BTCUSDT"]\nsink:\n  type: ndjson\n')).toEqual([
      '3:3: source.intervals: is required',
      '4:11: source.codes[0]: " BTCUSDT" is not a product code: a blank before it; did you mean "BTCUSDT"?',
    ]);
    // A code outside the catalog (a snapshot source may declare one): the code without its blank.
    expect(problemsAt('name: t\nsource:\n  type: trade-snapshot\n  codes: [" NOSUCH9"]\nsink:\n  type: ndjson\n')).toEqual([
      '4:11: source.codes[0]: " NOSUCH9" is not a product code: a blank before it; did you mean "NOSUCH9"?',
    ]);
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
