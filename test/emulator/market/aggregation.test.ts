import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SyntheticMarket } from '../../../src/emulator/market/index.js';
import { aggregate, minuteBarsBetween, ms, product, tsMs } from './helpers.js';

const mk = new SyntheticMarket(11);
const NOW = ms('2026-11-20T15:03:27.123Z');

/** The bar of `klineType` containing `at`, its end (next bar start or a bound), checked against the 1m bars. */
function checkCellAt(code: string, klineType: number, at: number, cellEndOf: (startMs: number) => number): void {
  const p = product(code);
  const bars = mk.klines(p, klineType, Math.floor(at / 1000), 1, NOW);
  expect(bars.length).toBe(1);
  const bar = bars[0]!;
  const start = tsMs(bar);
  const end = cellEndOf(start);
  const minutes = minuteBarsBetween(mk, p, start, end, NOW);
  expect(minutes.length).toBeGreaterThan(0);
  expect(bar).toEqual(aggregate(p, minutes, bar.timestamp));
}

const HOUR = 3_600_000;
const fixed = (len: number) => (s: number) => s + len;
/** Next local midnight of a zone: probe a day later and take the daily bar boundary via Intl. */
function nextZoneMidnight(zone: string, start: number, days: number): number {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });
  // Walk hour by hour from start + days*24h - 2h until local hour is 0 (handles 23/25-hour days).
  let t = start + days * 24 * HOUR - 2 * HOUR;
  for (let i = 0; i < 5; i++, t += HOUR) {
    const hour = f.formatToParts(new Date(t)).find((x) => x.type === 'hour')!.value;
    if (hour === '00') return t;
  }
  throw new Error('no midnight');
}

describe('coarser bars aggregate the 1m bars exactly', () => {
  it('US stock intraday and daily bars in the DST week (March 2026)', () => {
    for (const at of ['2026-03-06T15:10Z', '2026-03-09T13:45Z', '2026-03-09T19:59Z', '2026-03-10T17:00Z']) {
      for (const [kt, len] of [[2, 5], [3, 15], [4, 30], [5, 60]] as const) checkCellAt('AAPL.US', kt, ms(at), fixed(len * 60_000));
      checkCellAt('AAPL.US', 8, ms(at), (s) => nextZoneMidnight('America/New_York', s, 1));
    }
    // Weeks around the change (Sunday 2026-03-08): Monday 03-02 and Monday 03-09.
    checkCellAt('AAPL.US', 9, ms('2026-03-04T15:00Z'), (s) => nextZoneMidnight('America/New_York', s, 7));
    checkCellAt('AAPL.US', 9, ms('2026-03-11T15:00Z'), (s) => nextZoneMidnight('America/New_York', s, 7));
  });

  it('US monthly bar', () => {
    checkCellAt('TSLA.US', 10, ms('2026-03-15T15:00Z'), () => ms('2026-04-01T04:00Z'));
  });

  it('HK day spanning the lunch break, and hourly cells around it', () => {
    const at = ms('2026-11-18T06:00Z');
    checkCellAt('700.HK', 8, at, fixed(24 * HOUR));
    checkCellAt('700.HK', 5, ms('2026-11-18T03:30Z'), fixed(HOUR)); // 11:00-12:00 HK
    checkCellAt('700.HK', 4, ms('2026-11-18T05:10Z'), fixed(30 * 60_000)); // 13:00-13:30 HK
    // No bar for 12:00-13:00 HK: the 1h bar at or before 12:30 HK is the 11:00 one.
    const p = product('700.HK');
    const [bar] = mk.klines(p, 5, ms('2026-11-18T04:30Z') / 1000, 1, NOW);
    expect(new Date(tsMs(bar!)).toISOString()).toBe('2026-11-18T03:00:00.000Z');
  });

  it('forex 2h, 4h, daily (incl. the partial Sunday) and weekly', () => {
    const p = 'EURUSD';
    checkCellAt(p, 6, ms('2026-11-18T09:00Z'), fixed(2 * HOUR));
    checkCellAt(p, 7, ms('2026-11-18T13:00Z'), fixed(4 * HOUR));
    checkCellAt(p, 7, ms('2026-11-20T21:00Z'), fixed(4 * HOUR)); // Friday close at 22:00Z inside the cell
    checkCellAt(p, 8, ms('2026-11-15T23:00Z'), fixed(24 * HOUR)); // Sunday: 22:00-24:00Z only
    checkCellAt(p, 9, ms('2026-11-11T00:00Z'), fixed(7 * 24 * HOUR));
  });

  it('crypto property: random cells of every interval', () => {
    const lens = [0, 5, 15, 30, 60, 120, 240].map((m) => m * 60_000);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.integer({ min: ms('2025-01-01T00:00Z'), max: NOW - 2 * 86_400_000 }), (kt, at) => {
        const len = kt === 8 ? 24 * HOUR : lens[kt - 1]!;
        checkCellAt('BTCUSDT', kt, at, fixed(len));
      }),
      { numRuns: 25 },
    );
  });

  it('crypto weekly and monthly (whole month of 1m bars)', () => {
    checkCellAt('SHIBUSDT', 9, ms('2026-02-04T00:00Z'), fixed(7 * 24 * HOUR));
    checkCellAt('ETHUSDT', 10, ms('2026-02-14T00:00Z'), () => ms('2026-03-01T00:00Z'));
  });

  it('the forming daily bar aggregates the 1m bars up to now', () => {
    for (const code of ['BTCUSDT', 'AAPL.US', 'EURUSD']) {
      const p = product(code);
      const [bar] = mk.klines(p, 8, 0, 1, NOW);
      const minutes = minuteBarsBetween(mk, p, tsMs(bar!), NOW + 60_000, NOW);
      expect(bar).toEqual(aggregate(p, minutes, bar!.timestamp));
    }
  });

  it('forming intraday bars stay exact as now advances minute by minute (same market instance)', () => {
    const local = new SyntheticMarket(12);
    for (const [code, kt, len] of [['BTCUSDT', 2, 5], ['EURUSD', 5, 60], ['AAPL.US', 3, 15]] as const) {
      const p = product(code);
      const start = ms('2026-11-20T15:00:00Z');
      for (let now = start; now < start + 2 * len * 60_000; now += 41_000) {
        const [bar] = local.klines(p, kt, 0, 1, now);
        const minutes = minuteBarsBetween(local, p, tsMs(bar!), now + 60_000, now);
        expect(bar).toEqual(aggregate(p, minutes, bar!.timestamp));
      }
    }
  });
});
