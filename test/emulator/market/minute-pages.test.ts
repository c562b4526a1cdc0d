import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listProducts } from '../../../src/catalog/index.js';
import { SyntheticMarket } from '../../../src/emulator/market/index.js';
import { listedStartMs } from '../../../src/catalog/bar-grid.js';
import { barBytesBound, MinutePages, type MinuteSeries } from '../../../src/emulator/market/minute-pages.js';
import { PricePath } from '../../../src/emulator/market/price-path.js';
import { ms, product } from './helpers.js';

/** The fast path of /kline (bytes written straight from the price path) against the objects it stands for. */
const text = (pieces: readonly Uint8Array[] | undefined): string => Buffer.concat(pieces ?? []).toString('utf8');
const NOW = ms('2026-11-20T15:03:27.123Z'); // Friday: US, FX and crypto open; HK and CN closed
const codes = listProducts().map((p) => p.code);

describe('SyntheticMarket.klineListJson', () => {
  it('is JSON.stringify(klines) for any product, end, count and clock', () => {
    const fast = new SyntheticMarket(7, { minutePageEntries: 4 }); // small: kept pages are evicted and written again
    const slow = new SyntheticMarket(7);
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.integer({ min: 0, max: 400 * 86_400 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 3 * 86_400_000 }),
        fc.boolean(),
        (code, backSec, count, laterMs, newest) => {
          const p = product(code);
          const now = NOW - laterMs;
          const endSec = newest ? 0 : Math.floor(now / 1000) - backSec;
          expect(text(fast.klineListJson(p, 1, endSec, count, now))).toBe(JSON.stringify(slow.klines(p, 1, endSec, count, now)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the forming minute and the minutes closing as the clock moves within an hour', () => {
    const fast = new SyntheticMarket(3);
    for (const code of ['BTCUSDT', 'EURUSD', 'AAPL.US']) {
      const p = product(code);
      for (let now = ms('2026-11-20T15:00:00Z'); now < ms('2026-11-20T16:05:00Z'); now += 7_919) {
        const want = JSON.stringify(new SyntheticMarket(3).klines(p, 1, 0, 90, now));
        expect(text(fast.klineListJson(p, 1, 0, 90, now)), `${code} ${now}`).toBe(want);
      }
    }
  });

  it('empty before listing, undefined for other types, same argument checks', () => {
    const mk = new SyntheticMarket(1);
    const btc = product('BTCUSDT');
    expect(text(mk.klineListJson(btc, 1, ms('1990-01-01T00:00:00Z') / 1000, 500, NOW))).toBe('[]');
    expect(mk.klineListJson(btc, 2, 0, 500, NOW)).toBeUndefined();
    expect(() => mk.klineListJson(btc, 1, -1, 500, NOW)).toThrow(RangeError);
    expect(() => mk.klineListJson(btc, 1, 0, 0, NOW)).toThrow(RangeError);
  });

  it('a page of closed bars asked again is the very same buffer; a page with its forming minute is written anew', () => {
    const mk = new SyntheticMarket(5);
    const btc = product('BTCUSDT');
    const end = Math.floor(NOW / 1000) - 3 * 3600;
    const first = mk.klineListJson(btc, 1, end, 500, NOW)!;
    expect(mk.klineListJson(btc, 1, end, 500, NOW + 60_000)![0]).toBe(first[0]);
    const forming = mk.klineListJson(btc, 1, 0, 500, NOW)!;
    const later = mk.klineListJson(btc, 1, 0, 500, NOW + 20_000)!;
    expect(later[0]).not.toBe(forming[0]);
    expect(text(later)).toBe(JSON.stringify(new SyntheticMarket(5).klines(btc, 1, 0, 500, NOW + 20_000)));
  });
});

const series = (code: string, seed: number): MinuteSeries => {
  const p = product(code);
  return { id: 1, product: p, path: new PricePath(seed, p), listedStartMs: listedStartMs(p) };
};

describe('MinutePages', () => {
  it('every bar of every product fits the bound its page buffer is sized by', () => {
    fc.assert(
      fc.property(fc.constantFrom(...codes), fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 0, max: 30 * 365 * 86_400 }), (code, seed, backSec) => {
        const s = series(code, seed);
        const bound = barBytesBound(s);
        const end = Math.floor(NOW / 1000) - backSec;
        for (const bar of new SyntheticMarket(seed).klines(s.product, 1, end, 50, NOW)) {
          expect(JSON.stringify(bar).length + 1).toBeLessThanOrEqual(bound); // with its comma
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a page whose bars outgrow the bound (a model claiming too small a price) is written again in full', () => {
    const s = series('BTCUSDT', 9);
    const path = Object.assign(Object.create(PricePath.prototype) as PricePath, s.path, { maxPrice: 1, maxMinuteVolume: 1 });
    const short = { ...s, path };
    expect(barBytesBound(short)).toBeLessThan(barBytesBound(s));
    const end = Math.floor(NOW / 1000) - 86_400;
    const hi = Math.floor((end * 1000) / 60_000) * 60_000 + 60_000;
    const page = new MinutePages(4).page(short, hi, 500, NOW);
    expect(text(page)).toBe(JSON.stringify(new SyntheticMarket(9).klines(s.product, 1, end, 500, NOW)));
  });
});
