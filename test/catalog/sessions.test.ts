import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SESSION_NAMES, isTrading, nextSessionChange, sessionWindows, windowsBackward } from '../../src/catalog/sessions.js';
import type { SessionName } from '../../src/catalog/types.js';

const ms = (iso: string): number => Date.parse(iso);
const iso = (w: { start: number; end: number }): [string, string] => [new Date(w.start).toISOString(), new Date(w.end).toISOString()];

describe('us-equity', () => {
  it('opens 09:30-16:00 New York, exact across the March DST change', () => {
    // DST starts Sunday 2026-03-08: Friday 03-06 is EST (UTC-5), Monday 03-09 EDT (UTC-4).
    const ws = sessionWindows('us-equity', ms('2026-03-06T00:00Z'), ms('2026-03-10T00:00Z'));
    expect(ws.map(iso)).toEqual([
      ['2026-03-06T14:30:00.000Z', '2026-03-06T21:00:00.000Z'],
      ['2026-03-09T13:30:00.000Z', '2026-03-09T20:00:00.000Z'],
    ]);
    expect(isTrading('us-equity', ms('2026-03-09T13:29:59.999Z'))).toBe(false);
    expect(isTrading('us-equity', ms('2026-03-09T13:30:00Z'))).toBe(true);
    expect(isTrading('us-equity', ms('2026-03-09T19:59:59.999Z'))).toBe(true);
    expect(isTrading('us-equity', ms('2026-03-09T20:00:00Z'))).toBe(false);
  });

  it('is exact across the November DST change', () => {
    // DST ends Sunday 2026-11-01.
    const ws = sessionWindows('us-equity', ms('2026-10-30T00:00Z'), ms('2026-11-03T00:00Z'));
    expect(ws.map(iso)).toEqual([
      ['2026-10-30T13:30:00.000Z', '2026-10-30T20:00:00.000Z'],
      ['2026-11-02T14:30:00.000Z', '2026-11-02T21:00:00.000Z'],
    ]);
  });

  it('is closed on the fixed holidays', () => {
    // 2026-12-25 is a Friday, 2026-07-04 a Saturday, 2027-01-01 a Friday.
    expect(sessionWindows('us-equity', ms('2026-12-24T00:00Z'), ms('2026-12-29T00:00Z')).map(iso)).toEqual([
      ['2026-12-24T14:30:00.000Z', '2026-12-24T21:00:00.000Z'],
      ['2026-12-28T14:30:00.000Z', '2026-12-28T21:00:00.000Z'],
    ]);
    expect(isTrading('us-equity', ms('2027-01-01T15:00Z'))).toBe(false);
  });
});

describe('hk-equity and cn-equity', () => {
  it('HK has a lunch break 12:00-13:00 Hong Kong', () => {
    expect(sessionWindows('hk-equity', ms('2026-11-19T16:00Z'), ms('2026-11-20T16:00Z')).map(iso)).toEqual([
      ['2026-11-20T01:30:00.000Z', '2026-11-20T04:00:00.000Z'],
      ['2026-11-20T05:00:00.000Z', '2026-11-20T08:00:00.000Z'],
    ]);
    expect(isTrading('hk-equity', ms('2026-11-20T04:30Z'))).toBe(false);
  });

  it('CN trades 09:30-11:30 and 13:00-15:00 Shanghai and closes 1-3 October', () => {
    expect(sessionWindows('cn-equity', ms('2026-11-19T16:00Z'), ms('2026-11-20T16:00Z')).map(iso)).toEqual([
      ['2026-11-20T01:30:00.000Z', '2026-11-20T03:30:00.000Z'],
      ['2026-11-20T05:00:00.000Z', '2026-11-20T07:00:00.000Z'],
    ]);
    // 2025-10-01..03 are Wed-Fri.
    expect(sessionWindows('cn-equity', ms('2025-09-30T16:00Z'), ms('2025-10-05T16:00Z'))).toEqual([]);
  });
});

describe('fx-week and always', () => {
  it('runs Sunday 17:00 to Friday 17:00 New York as one merged window', () => {
    const ws = sessionWindows('fx-week', ms('2026-11-20T00:00Z'), ms('2026-11-30T00:00Z'));
    expect(ws.map(iso)).toEqual([
      ['2026-11-20T00:00:00.000Z', '2026-11-20T22:00:00.000Z'],
      ['2026-11-22T22:00:00.000Z', '2026-11-27T22:00:00.000Z'],
      ['2026-11-29T22:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ]);
    // Summer time: close at 21:00Z.
    expect(isTrading('fx-week', ms('2026-07-17T20:59Z'))).toBe(true);
    expect(isTrading('fx-week', ms('2026-07-17T21:00Z'))).toBe(false);
    expect(isTrading('fx-week', ms('2026-07-19T21:00Z'))).toBe(true);
  });

  it('always trades', () => {
    expect(sessionWindows('always', ms('2026-11-20T10:00Z'), ms('2026-11-23T10:00Z')).map(iso)).toEqual([
      ['2026-11-20T10:00:00.000Z', '2026-11-23T10:00:00.000Z'],
    ]);
    expect(nextSessionChange('always', ms('2026-11-20T10:00Z'))).toBeNull();
  });

  it('nextSessionChange finds the next open or close', () => {
    expect(nextSessionChange('us-equity', ms('2026-11-20T15:00Z'))).toBe(ms('2026-11-20T21:00Z'));
    expect(nextSessionChange('us-equity', ms('2026-11-20T21:00Z'))).toBe(ms('2026-11-23T14:30Z'));
    expect(nextSessionChange('fx-week', ms('2026-11-21T12:00Z'))).toBe(ms('2026-11-22T22:00Z'));
    expect(nextSessionChange('hk-equity', ms('2026-11-20T04:00Z'))).toBe(ms('2026-11-20T05:00Z'));
  });
});

describe('properties', () => {
  const session = fc.constantFrom<SessionName>(...SESSION_NAMES);
  const instant = fc.integer({ min: ms('2020-01-01T00:00Z'), max: ms('2028-01-01T00:00Z') });

  it('sessionWindows are sorted, disjoint, clipped, and agree with isTrading', () => {
    fc.assert(
      fc.property(session, instant, fc.integer({ min: 1, max: 10 * 86_400_000 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }), (s, from, len, probes) => {
        const to = from + len;
        const ws = sessionWindows(s, from, to);
        let prevEnd = -Infinity;
        for (const w of ws) {
          expect(w.start).toBeGreaterThanOrEqual(from);
          expect(w.end).toBeLessThanOrEqual(to);
          expect(w.start).toBeLessThan(w.end);
          expect(w.start).toBeGreaterThan(prevEnd); // merged: never touching
          prevEnd = w.end;
          expect(isTrading(s, w.start)).toBe(true);
          expect(isTrading(s, w.end - 1)).toBe(true);
        }
        for (const u of probes) {
          const t = Math.min(to - 1, from + Math.floor(u * len));
          const inside = ws.some((w) => t >= w.start && t < w.end);
          expect(inside).toBe(isTrading(s, t));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('windowsBackward covers the same instants as sessionWindows, newest first', () => {
    fc.assert(
      fc.property(session, instant, fc.integer({ min: 1, max: 6 * 86_400_000 }), (s, from, len) => {
        const back = [...windowsBackward(s, from + len, from)];
        for (let i = 1; i < back.length; i++) expect(back[i]!.end).toBeLessThanOrEqual(back[i - 1]!.start);
        const total = (xs: Array<{ start: number; end: number }>): number => xs.reduce((a, w) => a + w.end - w.start, 0);
        expect(total(back)).toBe(total(sessionWindows(s, from, from + len)));
      }),
      { numRuns: 100 },
    );
  });
});
