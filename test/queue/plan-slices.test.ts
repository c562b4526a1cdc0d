import { describe, expect, it } from 'vitest';
import { planSlices } from '../../src/queue/plan-slices.js';
import { sliceJobId } from '../../src/queue/slice.js';
import { nextFirings } from '../../src/queue/schedules.js';

const t = (iso: string) => Date.parse(iso);

describe('planSlices', () => {
  it('intraday series: one slice per UTC day, ending a second before the next partition', () => {
    const slices = planSlices([{ code: 'BTCUSDT', interval: '1m', walkable: true }], t('2026-11-17T06:00:00Z'), t('2026-11-19T06:30:00Z'));
    expect(slices.map((s) => [new Date(s.fromMs).toISOString(), new Date(s.untilMs).toISOString(), s.partition])).toEqual([
      ['2026-11-17T06:00:00.000Z', '2026-11-17T23:59:59.000Z', 'interval=1m/year=2026/date=2026-11-17'],
      ['2026-11-18T00:00:00.000Z', '2026-11-18T23:59:59.000Z', 'interval=1m/year=2026/date=2026-11-18'],
      ['2026-11-19T00:00:00.000Z', '2026-11-19T06:30:00.000Z', 'interval=1m/year=2026/date=2026-11-19'],
    ]);
  });

  it('daily and longer bars: one slice per UTC year (the lake partitions them by year)', () => {
    const slices = planSlices([{ code: 'GOLD', interval: '1d', walkable: true }], t('2024-06-01T00:00:00Z'), t('2026-02-01T00:00:00Z'));
    expect(slices.map((s) => s.partition)).toEqual(['interval=1d/year=2024', 'interval=1d/year=2025', 'interval=1d/year=2026']);
    expect(new Date(slices[1]!.fromMs).toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(new Date(slices[1]!.untilMs).toISOString()).toBe('2025-12-31T23:59:59.000Z');
  });

  it('a series that cannot be walked back (a stock) stays one slice', () => {
    const slices = planSlices([{ code: 'AAPL.US', interval: '1m', walkable: false }], t('2026-11-17T00:00:00Z'), t('2026-11-19T00:00:00Z'));
    expect(slices).toEqual([{ code: 'AAPL.US', interval: '1m', fromMs: t('2026-11-17T00:00:00Z'), untilMs: t('2026-11-19T00:00:00Z'), partition: 'series' }]);
  });

  it('no slice for an empty range', () => {
    expect(planSlices([{ code: 'BTCUSDT', interval: '1m', walkable: true }], t('2026-11-19T00:00:00Z'), t('2026-11-18T00:00:00Z'))).toEqual([]);
  });
});

describe('sliceJobId', () => {
  const base = { name: 'p', code: 'BTCUSDT', interval: '1m' as const, fromMs: 1, untilMs: 2 };
  it('is stable, free of colons, and differs by series, range and lake', () => {
    expect(sliceJobId(base)).toBe(sliceJobId({ ...base }));
    expect(sliceJobId(base)).toMatch(/^slice-[0-9a-f]{32}$/);
    const others = [{ ...base, code: 'ETHUSDT' }, { ...base, interval: '1h' as const }, { ...base, untilMs: 3 }, { ...base, output: '/lake' }, { ...base, name: 'q' }];
    expect(new Set([base, ...others].map(sliceJobId)).size).toBe(6);
  });
});

describe('nextFirings', () => {
  it('reads the pattern in the zone (New York: 09:30 local is 14:30 UTC in winter, 13:30 after the March change)', () => {
    const next = nextFirings('30 9 * * 1-5', 'America/New_York', t('2026-03-05T15:00:00Z'), 4);
    expect(next.map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-03-06T14:30:00.000Z',
      '2026-03-09T13:30:00.000Z',
      '2026-03-10T13:30:00.000Z',
      '2026-03-11T13:30:00.000Z',
    ]);
  });
});
