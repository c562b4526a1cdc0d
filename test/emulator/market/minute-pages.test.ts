import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listProducts } from '../../../src/catalog/index.js';
import { SyntheticMarket } from '../../../src/emulator/market/index.js';
import { ms, product } from './helpers.js';

/** The fast path of /kline (bytes from cached hour blocks) against the objects it stands for. */
const text = (pieces: readonly Uint8Array[] | undefined): string => Buffer.concat(pieces ?? []).toString('utf8');
const NOW = ms('2026-11-20T15:03:27.123Z'); // Friday: US, FX and crypto open; HK and CN closed
const codes = listProducts().map((p) => p.code);

describe('SyntheticMarket.klineListJson', () => {
  it('is JSON.stringify(klines) for any product, end, count and clock', () => {
    const fast = new SyntheticMarket(7, { minuteBlockEntries: 16 }); // small: blocks are evicted and rebuilt
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

  it('a block built early is extended as minutes close (clock moving within one hour)', () => {
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
});
