import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedBarStarts, findProduct } from '../../../src/catalog/index.js';
import type { Product } from '../../../src/catalog/types.js';
import { SyntheticMarket } from '../../../src/emulator/market/index.js';

const ms = (iso: string): number => Date.parse(iso);
const p = (code: string): Product => findProduct(code)!;

describe('the emulator and the catalog bar grid', () => {
  it('agrees with the emulator on which bars exist', () => {
    const mk = new SyntheticMarket(3);
    const codes = ['AAPL.US', '700.HK', '600000.SH', 'EURUSD', 'BTCUSDT', 'US500'];
    fc.assert(
      fc.property(fc.constantFrom(...codes), fc.constantFrom(1, 2, 3, 4, 5, 6, 7, 8), fc.integer({ min: ms('2026-01-01T00:00Z'), max: ms('2026-11-20T00:00Z') }), (code, kt, now) => {
        const prod = p(code);
        if (!prod.supportsMultiHourBars && (kt === 6 || kt === 7)) return;
        const bars = mk.klines(prod, kt, 0, kt === 8 ? 10 : 60, now);
        const from = Number(bars[0]!.timestamp) * 1000;
        const expected = expectedBarStarts(prod, kt, from, Math.floor(now / 60_000) * 60_000 + 60_000);
        expect(bars.map((b) => Number(b.timestamp) * 1000)).toEqual(expected);
      }),
      { numRuns: 80 },
    );
  });
});
