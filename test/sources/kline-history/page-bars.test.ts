import { describe, expect, it } from 'vitest';
import { otherCounts, pagesFor } from '../../../src/sources/kline-history/page-bars.js';

describe('page-bars', () => {
  it('pagesFor: one request per started page of 500', () => {
    expect([0, 1, 500, 501, 1000].map(pagesFor)).toEqual([0, 1, 1, 2, 2]);
  });

  it('otherCounts: as many as asked, all different from want and each other, never fewer than want, the whole page first', () => {
    // Above 500 a count is served as 500 (W5): the only other questions that can complete a full page.
    expect(otherCounts(500, 3)).toEqual([501, 502, 503]);
    expect(otherCounts(2, 3)).toEqual([500, 3, 4]);
    expect(otherCounts(1, 3)).toEqual([500, 2, 3]);
    expect(otherCounts(210, 3)).toEqual([500, 211, 212]);
    expect(otherCounts(499, 3)).toEqual([500, 501, 502]);
  });
});
