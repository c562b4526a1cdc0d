import { describe, expect, it } from 'vitest';
import { OPEN_SERIES, pagesAheadPerSeries } from '../../../src/sources/kline-history/series-schedule.js';

describe('pagesAheadPerSeries', () => {
  it('series up to concurrency keep prefetchPages each', () => {
    expect(pagesAheadPerSeries(4, 4, 1)).toBe(4);
    expect(pagesAheadPerSeries(4, 4, 4)).toBe(4);
    expect(pagesAheadPerSeries(4, 1, 10)).toBe(1);
  });

  it('more series share the concurrency x (prefetchPages - 1) pages ahead, one page each at least', () => {
    // The backfill bench: 10 codes, concurrency 4, 4 pages: 12 pages ahead to share, 1 each (+1 read).
    expect(pagesAheadPerSeries(4, 4, 10)).toBe(2);
    expect(pagesAheadPerSeries(4, 4, 6)).toBe(3);
    expect(pagesAheadPerSeries(2, 4, 6)).toBe(2);
    expect(pagesAheadPerSeries(4, 4, 13)).toBe(1);
    expect(pagesAheadPerSeries(16, 4, 32)).toBe(2);
  });

  it('counts only the series started at once', () => {
    expect(OPEN_SERIES).toBe(64);
    expect(pagesAheadPerSeries(64, 16, 1000)).toBe(16);
    expect(pagesAheadPerSeries(32, 4, 1000)).toBe(2);
    expect(pagesAheadPerSeries(4, 4, 1000)).toBe(1);
  });
});
