import { describe, expect, it } from 'vitest';
import { countBars, countBarsUpTo, findProduct } from '../../src/catalog/index.js';
import type { Interval } from '../../src/core/records.js';
import { mulberry32 } from '../../src/core/mulberry32.js';

const ms = (iso: string): number => Date.parse(iso);

describe('countBarsUpTo: a page-sized count that costs the same whatever the span', () => {
  it('equals min(cap, countBars) for every session kind, interval and span', () => {
    const random = mulberry32(14);
    const codes = ['BTCUSDT', 'EURUSD', 'GOLD', 'AAPL.US', '700.HK', '600519.SH'];
    const intervals: Interval[] = ['1m', '5m', '1h', '4h', '1d'];
    const now = ms('2026-11-20T13:37:00Z');
    for (let k = 0; k < 400; k++) {
      const product = findProduct(codes[Math.floor(random() * codes.length)]!)!;
      const interval = intervals[Math.floor(random() * intervals.length)]!;
      const to = now - Math.floor(random() * 40 * 86_400_000);
      const from = to - Math.floor(random() * 60 * 86_400_000);
      const cap = [1, 2, 499, 500][Math.floor(random() * 4)]!;
      const withNow = random() < 0.5 ? now : undefined;
      expect(countBarsUpTo(product, interval, from, to, cap, withNow), `${product.code} ${interval} ${from}..${to} cap ${cap}`).toBe(
        Math.min(cap, countBars(product, interval, from, to, withNow)),
      );
    }
  });

  it('is 0 for an empty range or a cap of 0, and stops at the floor over a weekend', () => {
    const eurusd = findProduct('EURUSD')!;
    expect(countBarsUpTo(eurusd, '1m', ms('2026-11-20T00:00Z'), ms('2026-11-20T00:00Z'), 500)).toBe(0);
    expect(countBarsUpTo(eurusd, '1m', ms('2026-11-19T00:00Z'), ms('2026-11-20T00:00Z'), 0)).toBe(0);
    // Saturday and Sunday hold no FX bar: the window doubles past them to Friday's bars.
    expect(countBarsUpTo(eurusd, '1m', ms('2026-11-01T00:00Z'), ms('2026-11-22T20:00Z'), 500)).toBe(500);
    expect(countBarsUpTo(eurusd, '1m', ms('2026-11-21T00:00Z'), ms('2026-11-22T20:00Z'), 500)).toBe(countBars(eurusd, '1m', ms('2026-11-21T00:00Z'), ms('2026-11-22T20:00Z')));
  });
});
