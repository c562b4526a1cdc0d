/** The walk's memoised calendar answers exactly as the calendar does, asked in any order, at any `now`. */
import { describe, expect, it } from 'vitest';
import { countBarsUpTo, findProduct, nthBarBack } from '../../../src/catalog/index.js';
import { mulberry32 } from '../../../src/core/mulberry32.js';
import type { Interval } from '../../../src/core/records.js';
import { WalkCalendar } from '../../../src/sources/kline-history/walk-calendar.js';

const ms = (iso: string): number => Date.parse(iso);

describe('WalkCalendar', () => {
  it('equals countBarsUpTo and nthBarBack for repeated and fresh questions, now moving within and across minutes', () => {
    const random = mulberry32(1714);
    const codes = ['BTCUSDT', 'EURUSD', 'GOLD', 'AAPL.US', '700.HK'];
    const intervals: Interval[] = ['1m', '5m', '1h', '1d'];
    for (let w = 0; w < 12; w++) {
      const product = findProduct(codes[w % codes.length]!)!;
      const interval = intervals[Math.floor(random() * intervals.length)]!;
      // The top of the walk sits near now, where the forming bar makes the count depend on it.
      let now = ms('2026-11-20T13:37:00Z') + Math.floor(random() * 86_400_000);
      const floor = now - Math.floor((1 + random() * 30) * 86_400_000);
      const calendar = new WalkCalendar(product, interval, floor);
      const ends: number[] = [];
      for (let q = 0; q < 150; q++) {
        // Half the questions repeat an earlier end (as pages asked for ahead do).
        const to = ends.length > 0 && random() < 0.5 ? ends[Math.floor(random() * ends.length)]! : now + 60_000 - Math.floor(random() * 20 * 86_400_000);
        ends.push(to);
        const cap = [1, 499, 500][Math.floor(random() * 3)]!;
        const label = `${product.code} ${interval} floor ${floor} to ${to} cap ${cap} now ${now}`;
        expect(calendar.countUpTo(to, cap, now), label).toBe(countBarsUpTo(product, interval, floor, to, cap, now));
        expect(calendar.nthBack(to, cap), label).toBe(nthBarBack(product, interval, to, cap, floor));
        // The clock moves on: sometimes within the minute, sometimes into the next ones.
        now += Math.floor(random() * (random() < 0.5 ? 20_000 : 200_000));
      }
    }
  });
});
