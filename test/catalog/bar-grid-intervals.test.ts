import { describe, expect, it } from 'vitest';
import { barOpens, countBars, intervalSupported, intervalToKlineType, listProducts, nthBarBack } from '../../src/catalog/index.js';
import type { Interval } from '../../src/core/records.js';
import { SyntheticMarket } from '../../src/emulator/market/index.js';

const INTERVALS: Interval[] = ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '1d', '1w', '1mo'];
const market = new SyntheticMarket(11);

// Instants around DST changes, weekends, lunch breaks and session opens.
const NOWS = ['2026-03-09T13:31:20Z', '2026-03-29T01:05:00Z', '2026-11-02T14:45:10Z', '2026-07-05T12:00:00Z', '2026-02-16T04:10:00Z'].map((t) => Date.parse(t));

// One product per class and calendar keeps this fast; every calendar and grid zone is covered.
const SAMPLE = [...new Map(listProducts().map((p) => [`${p.productClass}|${p.session}|${p.gridZone}`, p])).values()];

describe('bar grid = the bars the service serves', () => {
  for (const product of SAMPLE) {
    it(`${product.code}: every interval, around DST, weekends and breaks`, () => {
      for (const interval of INTERVALS) {
        if (!intervalSupported(product, interval)) continue;
        const count = ['1w', '1mo'].includes(interval) ? 14 : 60;
        for (const now of NOWS) {
          const served = market.klines(product, intervalToKlineType(interval as never), 0, count, now).map((b) => Number(b.timestamp) * 1000);
          if (served.length === 0) continue;
          const grid = [...barOpens(product, interval, served[0]!, now + 1, now)];
          expect(grid, `${product.code} ${interval} at ${new Date(now).toISOString()}`).toEqual(served);
          expect(countBars(product, interval, served[0]!, now + 1, now)).toBe(served.length);
          // Where a page of that many bars ending at the newest one starts (prefetching relies on it).
          expect(nthBarBack(product, interval, served.at(-1)!, served.length, 0)).toBe(served[0]);
          if (served.length > 5) expect(nthBarBack(product, interval, served.at(-3)! + 1000, 4, 0)).toBe(served.at(-6));
        }
      }
    });
  }
});
