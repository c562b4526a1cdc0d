import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../src/core/did-you-mean.js';
import { zoneGuess } from '../../src/core/iana-zone.js';

describe('didYouMean', () => {
  it('offers the nearest candidate within a third of the word (1 to 3 edits)', () => {
    expect(didYouMean('kline-backfil', ['kline-backfill', 'kline-update', 'halts'])).toBe('kline-backfill');
    expect(didYouMean('sinc', ['since', 'until', 'codes'])).toBe('since');
    expect(didYouMean('sinkk', ['name', 'source', 'sink'])).toBe('sink');
    expect(didYouMean('Since', ['since'])).toBe('since');
    expect(didYouMean('kline-histroy-long', ['kline-history-long'])).toBe('kline-history-long');
  });

  it('offers nothing for an unrelated word, the word itself, or no candidates', () => {
    expect(didYouMean('zzz', ['kline-backfill', 'halts'])).toBeUndefined();
    expect(didYouMean('compresion', ['decimal', 'maxRowsPerFile', 'rowGroupRows'])).toBeUndefined();
    expect(didYouMean('since', ['since'])).toBeUndefined();
    expect(didYouMean('since', [])).toBeUndefined();
    // Short words allow one edit only: "ab" is not "xy".
    expect(didYouMean('ab', ['xy', 'ac'])).toBe('ac');
    expect(didYouMean('ab', ['xy'])).toBeUndefined();
  });

  it('prefers a case-only difference to a real edit, and takes two swapped letters for one edit', () => {
    expect(didYouMean('B.yaml', ['a.yaml', 'b.yaml'])).toBe('b.yaml');
    expect(didYouMean('tabel', ['table', 'format'])).toBe('table');
    expect(didYouMean('parqeut', ['parquet', 'arrow', 'ndjson'])).toBe('parquet');
  });

  it('breaks ties by name, so the answer does not depend on the order of the candidates', () => {
    expect(didYouMean('cat', ['cut', 'bat'])).toBe('bat');
    expect(didYouMean('cat', ['bat', 'cut'])).toBe('bat');
  });
});

describe('zoneGuess', () => {
  it('names the IANA zone a mistyped one resembles, UTC included, and nothing for a made-up one', () => {
    expect(zoneGuess('America/New_Yrok')).toBe('; did you mean "America/New_York"?');
    expect(zoneGuess('Asia/Shangai')).toBe('; did you mean "Asia/Shanghai"?');
    expect(zoneGuess('UTX')).toBe('; did you mean "UTC"?');
    expect(zoneGuess('Mars/Olympus')).toBe('');
    expect(zoneGuess(42)).toBe('');
  });
});
