import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTrading, listProducts, nextSessionChange } from '../../../src/catalog/index.js';
import type { Product } from '../../../src/catalog/types.js';
import { SyntheticMarket } from '../../../src/emulator/market/index.js';
import { ms, product, scaled, tsMs } from './helpers.js';

const mkA = new SyntheticMarket(5);
const mkB = new SyntheticMarket(5);
const NOW = ms('2026-11-20T15:03:27.123Z'); // Friday: US, FX and crypto open; HK and CN closed
const products = listProducts();
const typesFor = (p: Product): number[] => (p.supportsMultiHourBars ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [1, 2, 3, 4, 5, 8, 9, 10]);

describe('determinism', () => {
  it('a closed bar is identical whatever the query (endSec, count, now, cache state)', () => {
    const codes = ['AAPL.US', '700.HK', '600000.SH', 'EURUSD', 'BTCUSDT', 'US500', 'COPPER'];
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: ms('2025-06-01T00:00Z'), max: NOW }),
        fc.integer({ min: 0, max: 40 * 86_400_000 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 1, max: 60 }),
        (code, kt0, now1, delta, countIn, count2In) => {
          let [count, count2] = [countIn, count2In];
          const p = product(code);
          const kt = typesFor(p)[kt0 % typesFor(p).length]!;
          if (kt >= 9) [count, count2] = [Math.min(count, 4), Math.min(count2, 4)]; // keep cold weeks/months cheap
          const a = mkA.klines(p, kt, 0, count, now1);
          if (a.length < 2) return;
          const closed = a.slice(0, -1); // all but the newest are closed
          const pick = closed[Math.floor(closed.length / 2)]!;
          const b = mkB.klines(p, kt, Number(pick.timestamp), count2, now1 + delta);
          expect(b[b.length - 1]).toEqual(pick);
          const fresh = new SyntheticMarket(5).klines(p, kt, Number(closed[closed.length - 1]!.timestamp), count, now1 + delta);
          expect(fresh.slice(-closed.length)).toEqual(closed.slice(-fresh.length));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('another seed gives another market', () => {
    const p = product('AAPL.US');
    expect(new SyntheticMarket(6).klines(p, 1, 0, 5, NOW)).not.toEqual(mkA.klines(p, 1, 0, 5, NOW));
  });
});

describe('wire format and realism', () => {
  it('every product: ascending, exact decimals, OHLC consistent, positive', () => {
    for (const p of products) {
      // Weeks and months of every product would cost seconds cold; a sample of classes covers them.
      const types = typesFor(p).filter((kt) => kt <= 8 || ['AAPL.US', '700.HK', 'EURUSD', 'SHIBUSDT', 'US500'].includes(p.code));
      for (const kt of types) {
        const bars = mkA.klines(p, kt, 0, kt <= 2 ? 300 : kt >= 8 ? 2 : 12, NOW);
        expect(bars.length, `${p.code} ${kt}`).toBeGreaterThan(0);
        // Plain checks collected into one assertion: a million expect() calls would dominate the run.
        const problems: string[] = [];
        let prev = -Infinity;
        for (const b of bars) {
          const where = `${p.code} kt=${kt} ts=${b.timestamp}`;
          if (!/^\d+$/.test(b.timestamp) || tsMs(b) <= prev || tsMs(b) > NOW) problems.push(`${where}: timestamp order`);
          prev = tsMs(b);
          try {
            const [o, c, h, l] = [b.open_price, b.close_price, b.high_price, b.low_price].map((x) => scaled(x, p.priceDecimals));
            if (!(l! > 0n && h! >= o! && h! >= c! && l! <= o! && l! <= c!)) problems.push(`${where}: OHLC`);
            scaled(b.volume, p.volumeDecimals);
            scaled(b.turnover, p.priceDecimals + p.volumeDecimals);
          } catch (e) {
            problems.push(`${where}: ${(e as Error).message}`);
          }
        }
        expect(problems).toEqual([]);
      }
    }
  });

  it('prices stay within a plausible range of the reference price over years', () => {
    // The latest trade is a direct function of time: sample each product across ten years.
    for (const p of products) {
      const ref = Number(p.referencePrice);
      for (let i = 0; i < 120; i++) {
        const at = ms('2016-11-20T00:00Z') + i * 30.4 * 86_400_000;
        const price = Number(mkA.trade(p, at).price);
        expect(price / ref, `${p.code} ${new Date(at).toISOString()}`).toBeLessThan(4);
        expect(price / ref, `${p.code} ${new Date(at).toISOString()}`).toBeGreaterThan(0.25);
      }
    }
    for (const code of ['BTCUSDT', 'AAPL.US']) {
      for (const b of mkA.klines(product(code), 10, 0, 18, NOW)) {
        expect(Number(b.high_price) / Number(product(code).referencePrice)).toBeLessThan(4);
      }
    }
  });

  it('SHIBUSDT and PEPEUSDT carry sub-cent prices exactly', () => {
    const shib = mkA.klines(product('SHIBUSDT'), 1, 0, 50, NOW);
    for (const b of shib) {
      expect(b.close_price).toMatch(/^0\.0000\d{4}$/);
      expect(b.volume).toMatch(/^\d+$/);
      expect(b.turnover).toMatch(/^\d+\.\d{8}$/);
    }
    for (const b of mkA.klines(product('PEPEUSDT'), 8, 0, 20, NOW)) expect(b.close_price).toMatch(/^0\.0000\d{6}$/);
  });

  it('an illiquid product has some zero-volume minutes', () => {
    const bars = mkA.klines(product('COPPER'), 1, 0, 200, NOW);
    const zero = bars.filter((b) => b.volume === '0');
    expect(zero.length).toBeGreaterThan(20);
    for (const b of zero) {
      expect(b.turnover).toBe('0.0000');
      expect(new Set([b.open_price, b.high_price, b.low_price, b.close_price]).size).toBe(1);
    }
  });

  it('rejects impossible input with RangeError', () => {
    const p = product('AAPL.US');
    expect(() => mkA.klines(p, 0, 0, 1, NOW)).toThrow(RangeError);
    expect(() => mkA.klines(p, 11, 0, 1, NOW)).toThrow(RangeError);
    expect(() => mkA.klines(p, 6, 0, 1, NOW)).toThrow(RangeError);
    expect(() => mkA.klines(p, 1, -1, 1, NOW)).toThrow(RangeError);
    expect(() => mkA.klines(p, 1, 0, 0, NOW)).toThrow(RangeError);
    expect(() => mkA.klines(p, 1, 0, 1, Number.NaN)).toThrow(RangeError);
  });
});

describe('sessions and the bar grid (W12)', () => {
  it('1m bars only inside sessions; none on weekends or holidays', () => {
    for (const code of ['AAPL.US', '700.HK', '000001.SZ', 'EURUSD', 'GOLD']) {
      const p = product(code);
      // 500 bars back from a Monday morning cross a weekend.
      for (const now of [ms('2026-11-23T16:00Z'), ms('2026-12-28T16:00Z'), ms('2026-10-08T06:00Z')]) {
        for (const b of mkA.klines(p, 1, 0, 500, now)) expect(isTrading(p.session, tsMs(b)), `${code} ${b.timestamp}`).toBe(true);
      }
    }
  });

  it('stock daily bars skip weekends and the fixed holidays', () => {
    const days = mkA.klines(product('AAPL.US'), 8, 0, 30, ms('2027-01-05T22:00Z')).map((b) => new Date(tsMs(b) + 5 * 3_600_000).toISOString().slice(0, 10));
    expect(days).not.toContain('2026-12-25');
    expect(days).not.toContain('2027-01-01');
    expect(days).toContain('2026-12-24');
    for (const d of days) expect([0, 6]).not.toContain(new Date(`${d}T12:00Z`).getUTCDay());
    const cn = mkA.klines(product('600000.SH'), 8, 0, 10, ms('2025-10-10T08:00Z')).map((b) => new Date(tsMs(b) + 8 * 3_600_000).toISOString().slice(0, 10));
    for (const d of ['2025-10-01', '2025-10-02', '2025-10-03']) expect(cn).not.toContain(d);
    expect(cn).toContain('2025-09-30');
  });

  it('no FX bars between Friday 17:00 and Sunday 17:00 New York', () => {
    const bars = mkA.klines(product('EURUSD'), 1, 0, 3, ms('2026-11-21T12:00Z'));
    expect(bars.map((b) => new Date(tsMs(b)).toISOString())).toEqual(['2026-11-20T21:57:00.000Z', '2026-11-20T21:58:00.000Z', '2026-11-20T21:59:00.000Z']);
    const first = mkA.klines(product('EURUSD'), 1, ms('2026-11-22T22:00Z') / 1000, 2, ms('2026-11-23T00:00Z'));
    expect(first.map((b) => new Date(tsMs(b)).toISOString())).toEqual(['2026-11-20T21:59:00.000Z', '2026-11-22T22:00:00.000Z']);
  });

  it('US 1h bars: the first of the day is stamped 09:00 New York; daily at 00:00 New York', () => {
    const p = product('AAPL.US');
    const winter = mkA.klines(p, 5, 0, 7, ms('2026-11-20T21:30Z')).map((b) => new Date(tsMs(b)).toISOString());
    expect(winter).toEqual(['14', '15', '16', '17', '18', '19', '20'].map((h) => `2026-11-20T${h}:00:00.000Z`));
    const summer = mkA.klines(p, 5, 0, 7, ms('2026-07-10T21:30Z')).map((b) => new Date(tsMs(b)).toISOString());
    expect(summer[0]).toBe('2026-07-10T13:00:00.000Z');
    expect(mkA.klines(p, 8, 0, 1, ms('2026-07-10T21:30Z'))[0]!.timestamp).toBe(String(ms('2026-07-10T04:00Z') / 1000));
    expect(mkA.klines(p, 9, 0, 1, ms('2026-07-10T21:30Z'))[0]!.timestamp).toBe(String(ms('2026-07-06T04:00Z') / 1000));
    expect(mkA.klines(p, 10, 0, 1, ms('2026-07-10T21:30Z'))[0]!.timestamp).toBe(String(ms('2026-07-01T04:00Z') / 1000));
    expect(mkA.klines(product('700.HK'), 8, 0, 1, NOW)[0]!.timestamp).toBe(String(ms('2026-11-19T16:00Z') / 1000));
    expect(mkA.klines(product('BTCUSDT'), 9, 0, 1, NOW)[0]!.timestamp).toBe(String(ms('2026-11-16T00:00Z') / 1000));
  });
});

describe('forming bars', () => {
  it('the newest 1m bar follows now and then becomes final', () => {
    const p = product('BTCUSDT');
    const minute = ms('2026-11-20T15:03:00Z');
    const seen = [0, 15_000, 30_000, 45_000, 59_999].map((dt) => mkA.klines(p, 1, 0, 1, minute + dt)[0]!);
    for (const b of seen) expect(tsMs(b)).toBe(minute);
    expect(seen[0]!.volume).not.toBe(seen[4]!.volume);
    expect(seen[0]!.open_price).toBe(seen[4]!.open_price);
    const final = mkA.klines(p, 1, minute / 1000, 1, minute + 3_600_000)[0]!;
    expect(final).toEqual(seen[4]);
    // The trade price is the forming bar's close at every moment.
    for (const dt of [1, 16_000, 31_000, 46_000]) {
      expect(mkA.trade(p, minute + dt).price).toBe(mkA.klines(p, 1, 0, 1, minute + dt)[0]!.close_price);
    }
  });

  it('the daily bar grows during the session and carries the close afterwards', () => {
    const p = product('AAPL.US');
    const during = mkA.klines(p, 8, 0, 1, ms('2026-11-20T18:00Z'))[0]!;
    const after = mkA.klines(p, 8, 0, 1, ms('2026-11-20T23:00Z'))[0]!;
    const later = mkA.klines(p, 8, 0, 2, ms('2026-11-23T12:00Z'));
    expect(during.timestamp).toBe(after.timestamp);
    expect(BigInt(after.volume) > BigInt(during.volume)).toBe(true);
    expect(later[1]).toEqual(after);
    const lastMinute = mkA.klines(p, 1, 0, 1, ms('2026-11-20T23:00Z'))[0]!;
    expect(new Date(tsMs(lastMinute)).toISOString()).toBe('2026-11-20T20:59:00.000Z');
    expect(after.close_price).toBe(lastMinute.close_price);
    expect(mkA.trade(p, ms('2026-11-21T10:00Z')).price).toBe(after.close_price);
  });

  it('previous-day close (spec 4.2): kline_type 8, count 2', () => {
    const p = product('600000.SH');
    const [prev, today] = mkA.klines(p, 8, 0, 2, ms('2026-11-20T03:00Z'));
    expect(tsMs(today!) - tsMs(prev!)).toBe(86_400_000);
    const [prevMon] = mkA.klines(p, 8, 0, 2, ms('2026-11-23T03:00Z'));
    expect(new Date(tsMs(prevMon!)).toISOString()).toBe('2026-11-19T16:00:00.000Z'); // Friday 11-20 Shanghai
  });
});

describe('endSec (W4) and listedSince', () => {
  it('returns the newest count bars with timestamp <= endSec', () => {
    fc.assert(
      fc.property(fc.constantFrom('EURUSD', 'BTCUSDT', 'GOLD', 'AAPL.US'), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 399 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 59 }), (code, kt, i, count, jitterSec) => {
          const p = product(code);
          const all = mkA.klines(p, kt, 0, 400, NOW);
          const end = Number(all[i]!.timestamp) + jitterSec;
          const got = mkA.klines(p, kt, end, count, NOW);
          const expected = all.filter((b) => Number(b.timestamp) <= end).slice(-count);
          if (i >= count - 1 || got.length === expected.length) expect(got).toEqual(expected);
          for (const b of got) expect(Number(b.timestamp)).toBeLessThanOrEqual(end);
        }),
      { numRuns: 80 },
    );
  });

  it('walks end at listedSince', () => {
    const p = product('TONUSDT'); // listed 2024-08-08
    const listed = ms('2024-08-08T00:00Z');
    expect(mkA.klines(p, 8, listed / 1000 - 1, 10, NOW)).toEqual([]);
    expect(mkA.klines(p, 1, listed / 1000 - 60, 10, NOW)).toEqual([]);
    const days = mkA.klines(p, 8, listed / 1000 + 5 * 86_400, 10, NOW);
    expect(days.map((b) => tsMs(b))).toEqual([0, 1, 2, 3, 4, 5].map((d) => listed + d * 86_400_000));
    expect(mkA.klines(p, 1, listed / 1000 + 600, 500, NOW).length).toBe(11);
    const months = mkA.klines(p, 10, 0, 500, NOW);
    expect(months[0]!.timestamp).toBe(String(ms('2024-08-01T00:00Z') / 1000)); // the cell still starts on the 1st
    expect(months.length).toBe(28);
    expect(mkA.klines(p, 1, 0, 10, ms('2024-08-07T23:00Z'))).toEqual([]);
  });
});

describe('depth and trade', () => {
  const dec = (x: string, d: number): bigint => scaled(x, d);

  it('book and trade invariants for every product at random instants', () => {
    fc.assert(
      fc.property(fc.constantFrom(...products), fc.integer({ min: ms('2026-01-01T00:00Z'), max: NOW }), (p, now) => {
        const d = mkA.depth(p, now);
        const t = mkA.trade(p, now);
        expect(d.code).toBe(p.code);
        expect(Number(d.tick_time)).toBeLessThanOrEqual(now);
        expect(Number(t.tick_time)).toBeLessThanOrEqual(now);
        expect(d.bids.length).toBeLessThanOrEqual(p.depthLevels);
        expect(d.asks.length).toBeLessThanOrEqual(p.depthLevels);
        const price = dec(t.price, p.priceDecimals);
        const bids = d.bids.map((l) => dec(l.price, p.priceDecimals));
        const asks = d.asks.map((l) => dec(l.price, p.priceDecimals));
        for (let i = 1; i < bids.length; i++) expect(bids[i]! < bids[i - 1]!).toBe(true);
        for (let i = 1; i < asks.length; i++) expect(asks[i]! > asks[i - 1]!).toBe(true);
        if (bids[0] !== undefined) expect(bids[0] <= price).toBe(true);
        if (asks[0] !== undefined) expect(price <= asks[0]).toBe(true);
        if (bids[0] !== undefined && asks[0] !== undefined) expect(bids[0] < asks[0]).toBe(true);
        for (const l of [...d.bids, ...d.asks]) {
          if (p.bookHasVolume) expect(dec(l.volume!, p.volumeDecimals) > 0n).toBe(true);
          else expect(l).not.toHaveProperty('volume');
        }
        if (p.limitLock === 'up') expect(d.asks).toEqual([]);
        else if (p.limitLock === 'down') expect(d.bids).toEqual([]);
        else {
          expect(d.asks.length).toBeGreaterThan(0);
          expect(d.bids.length).toBeGreaterThan(0);
        }
        expect(dec(t.turnover, p.priceDecimals + p.volumeDecimals)).toBe(price * dec(t.volume, p.volumeDecimals));
        if (['forex', 'metal', 'energy'].includes(p.productClass)) expect(t.trade_direction).toBe(1);
        // The trade is the newest 1m bar's close.
        const [bar] = mkA.klines(p, 1, 0, 1, now);
        expect(t.price).toBe(bar!.close_price);
      }),
      { numRuns: 300 },
    );
  });

  it('stocks and crypto report all three directions', () => {
    for (const code of ['AAPL.US', 'BTCUSDT']) {
      const dirs = new Set<number>();
      for (let i = 0; i < 200; i++) dirs.add(mkA.trade(product(code), NOW + i * 15_000).trade_direction);
      expect([...dirs].sort()).toEqual([0, 1, 2]);
    }
  });

  it('seq grows with time; the book holds still while the market is closed', () => {
    const p = product('BTCUSDT');
    const a = mkA.depth(p, NOW);
    const b = mkA.depth(p, NOW + 500);
    expect(BigInt(b.seq) > BigInt(a.seq)).toBe(true);
    const t1 = mkA.trade(p, NOW);
    const t2 = mkA.trade(p, NOW + 15_000);
    expect(BigInt(t2.seq) > BigInt(t1.seq)).toBe(true);
    const hk = product('700.HK');
    const closeAt = ms('2026-11-20T08:00Z');
    expect(mkA.depth(hk, NOW)).toEqual(mkA.depth(hk, closeAt + 3_600_000));
    expect(Number(mkA.depth(hk, NOW).tick_time)).toBe(closeAt - 500);
    expect(mkA.trade(hk, NOW).tick_time).toBe(String(closeAt - 15_000));
    expect(nextSessionChange(hk.session, NOW)).toBe(ms('2026-11-23T01:30Z'));
  });

  it('US500 levels carry no volume; HK shows up to 10 levels', () => {
    const us500 = mkA.depth(product('US500'), NOW);
    expect(us500.bids.length).toBe(1);
    expect(Object.keys(us500.bids[0]!)).toEqual(['price']);
    expect(mkA.depth(product('700.HK'), NOW).bids.length).toBe(10);
    expect(mkA.depth(product('BTCUSDT'), NOW).asks.length).toBe(5);
  });
});
