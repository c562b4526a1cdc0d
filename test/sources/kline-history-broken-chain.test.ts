/**
 * Pages asked for ahead on a chain that a short page (R1) or missing bars broke are answers for the
 * series all the same: the walk uses them (cut at its end, or after asking for the stretch between)
 * instead of asking again. Delivered bars stay exactly a clean run's, and each request is a page
 * the walk delivered, bar a few.
 */
import { describe, expect, it } from 'vitest';
import { sorted, useWalks, WALKED_CODES as CODES } from './helpers/walked-series.js';

describe('kline-history: a chain of pages asked for ahead, broken', () => {
  const walked = useWalks();

  it('clean: every request is a page delivered', async () => {
    const clean = await walked(1, undefined);
    expect(clean.requests).toBe(clean.pages);
    expect(clean.rows.length).toBe(new Set(clean.rows).size);
  }, 60_000);

  it.each([1, 2])('seed %i, short pages alone: the clean run\'s bars, and no request wasted but the pages ahead at a walk\'s end', async (seed) => {
    const clean = await walked(seed, undefined);
    for (const rate of [0.05, 0.5, 1]) {
      const odd = await walked(seed, `short-pages=${rate}`);
      expect(sorted(odd.rows), `short-pages=${rate}`).toEqual(sorted(clean.rows));
      // Before: every short page threw away the pages ahead on its chain (0.5: 2.3 times the pages).
      expect(odd.requests - odd.pages, `short-pages=${rate}`).toBeLessThanOrEqual(CODES.length * 2);
    }
  }, 120_000);

  it.each([
    ['short-pages=0.5,overlap', undefined],
    ['short-pages=0.5,descending', undefined],
    ['short-pages=0.5,shuffle', undefined],
    ['all,missing-bars=0', undefined],
    ['missing-bars=0.05', 'missing-bars=0.05'],
    ['short-pages=0.5,missing-bars=0.05', 'missing-bars=0.05'],
    ['all', 'missing-bars=0.02'],
  ])('%s: exactly the bars of a run without the other behaviours', async (behaviours, reference) => {
    for (const seed of [1, 2]) {
      const clean = await walked(seed, reference);
      const odd = await walked(seed, behaviours);
      expect(sorted(odd.rows), `seed ${seed}`).toEqual(sorted(clean.rows));
      expect(odd.rows.length).toBe(new Set(odd.rows).size);
    }
  }, 120_000);

  it.each([1, 3, 8])('short pages, killed after %i pages and resumed: no bar lost or repeated', async (cutAfter) => {
    const clean = await walked(3, undefined);
    for (const behaviours of ['short-pages=0.5', 'all,missing-bars=0']) {
      const odd = await walked(3, behaviours, cutAfter);
      expect(sorted(odd.rows), behaviours).toEqual(sorted(clean.rows));
      expect(odd.rows.length, behaviours).toBe(new Set(odd.rows).size);
    }
  }, 120_000);

  it('short pages: the requests of a chain a short page broke are used', async () => {
    const clean = await walked(1, undefined);
    const odd = await walked(1, 'short-pages=0.5');
    // Half the pages short: each gives half a page on average, so about 1.5 times the clean pages
    // are needed; before, the pages ahead thrown away made it 3.6 times.
    expect(odd.requests).toBeLessThanOrEqual(Math.ceil(2.2 * clean.requests));
  }, 60_000);
});
