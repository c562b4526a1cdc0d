import { describe, expect, it } from 'vitest';
import { barEnd, barStart, expectedBarStarts, findProduct, listedStartMs } from '../../src/catalog/index.js';
import type { Product } from '../../src/catalog/types.js';

const ms = (iso: string): number => Date.parse(iso);
const p = (code: string): Product => findProduct(code)!;
const isoList = (xs: number[]): string[] => xs.map((x) => new Date(x).toISOString());

describe('bar grid (W12)', () => {
  it('stamps cells in the grid zone', () => {
    expect(new Date(barStart(p('AAPL.US'), 5, ms('2026-11-20T14:45Z'))).toISOString()).toBe('2026-11-20T14:00:00.000Z');
    expect(new Date(barStart(p('AAPL.US'), 8, ms('2026-11-20T14:45Z'))).toISOString()).toBe('2026-11-20T05:00:00.000Z');
    expect(new Date(barStart(p('AAPL.US'), 9, ms('2026-11-20T14:45Z'))).toISOString()).toBe('2026-11-16T05:00:00.000Z');
    expect(new Date(barStart(p('AAPL.US'), 10, ms('2026-11-20T14:45Z'))).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(new Date(barEnd(p('AAPL.US'), 10, ms('2026-11-01T04:00Z'))).toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(new Date(barStart(p('700.HK'), 8, ms('2026-11-20T02:00Z'))).toISOString()).toBe('2026-11-19T16:00:00.000Z');
    expect(new Date(barStart(p('BTCUSDT'), 7, ms('2026-11-20T14:45Z'))).toISOString()).toBe('2026-11-20T12:00:00.000Z');
    expect(barEnd(p('BTCUSDT'), 6, ms('2026-11-20T12:00Z'))).toBe(ms('2026-11-20T14:00Z'));
    expect(() => barStart(p('BTCUSDT'), 11, 0)).toThrow(RangeError);
  });

  it('lists the bars a complete dataset has: US 1h, HK 1h around lunch, FX days', () => {
    expect(isoList(expectedBarStarts(p('AAPL.US'), 5, ms('2026-11-20T00:00Z'), ms('2026-11-21T00:00Z')))).toEqual(
      ['14', '15', '16', '17', '18', '19', '20'].map((h) => `2026-11-20T${h}:00:00.000Z`),
    );
    expect(isoList(expectedBarStarts(p('700.HK'), 5, ms('2026-11-19T16:00Z'), ms('2026-11-20T16:00Z')))).toEqual(
      ['01', '02', '03', '05', '06', '07'].map((h) => `2026-11-20T${h}:00:00.000Z`),
    );
    expect(isoList(expectedBarStarts(p('EURUSD'), 8, ms('2026-11-19T00:00Z'), ms('2026-11-24T00:00Z')))).toEqual(
      ['19', '20', '22', '23'].map((d) => `2026-11-${d}T00:00:00.000Z`),
    );
    expect(expectedBarStarts(p('TONUSDT'), 8, 0, listedStartMs(p('TONUSDT')))).toEqual([]);
  });
});
