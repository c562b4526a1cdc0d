import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planSlices } from '../../src/queue/plan-slices.js';
import { groupSlices, type SlicePiece } from '../../src/queue/group-slices.js';
import { sliceJobId, sliceOfJobData } from '../../src/queue/slice.js';
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
    expect(slices.map((s) => s.partition)).toEqual(['interval=1d/year=2024/date=__HIVE_DEFAULT_PARTITION__', 'interval=1d/year=2025/date=__HIVE_DEFAULT_PARTITION__', 'interval=1d/year=2026/date=__HIVE_DEFAULT_PARTITION__']);
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

describe('groupSlices', () => {
  const day = (code: string, date: string, requests = 3, interval: '1m' | '1h' = '1m'): SlicePiece => ({
    code,
    interval,
    fromMs: t(`${date}T00:00:00Z`),
    untilMs: t(`${date}T23:59:59Z`),
    partition: `interval=${interval}/year=2026/date=${date}`,
    requests,
  });

  it('codes of one interval over the same partition and span share a slice, within the request budget', () => {
    const pieces = ['A', 'B', 'C', 'D', 'E'].flatMap((c) => [day(c, '2026-11-17'), day(c, '2026-11-18')]);
    const groups = groupSlices(pieces, 9);
    expect(groups.map((g) => [g.partition.slice(-10), g.codes.join(','), g.requests])).toEqual([
      ['2026-11-17', 'A,B,C', 9],
      ['2026-11-18', 'A,B,C', 9],
      ['2026-11-17', 'D,E', 6],
      ['2026-11-18', 'D,E', 6],
    ]);
  });

  it('never groups across intervals, spans or whole stock series; a piece over the budget stays alone', () => {
    const later = { ...day('B', '2026-11-17'), fromMs: t('2026-11-17T06:00:00Z') };
    const stock = (code: string): SlicePiece => ({ code, interval: '1m', fromMs: 0, untilMs: 1, partition: 'series', requests: 1 });
    const groups = groupSlices([day('A', '2026-11-17'), later, day('C', '2026-11-17', 1, '1h'), day('D', '2026-11-17', 1, '1h'), stock('AAPL.US'), stock('TSLA.US'), day('E', '2026-11-17', 40)], 32);
    expect(groups.map((g) => g.codes.join(','))).toEqual(['A', 'B', 'C,D', 'AAPL.US', 'TSLA.US', 'E']);
  });
});

describe('sliceJobId', () => {
  const base = { name: 'p', codes: ['BTCUSDT'], interval: '1m' as const, fromMs: 1, untilMs: 2 };
  it('is stable, free of colons, and differs by series, range and lake', () => {
    expect(sliceJobId(base)).toBe(sliceJobId({ ...base }));
    expect(sliceJobId(base)).toMatch(/^slice-[0-9a-f]{32}$/);
    const others = [
      { ...base, codes: ['ETHUSDT'] },
      { ...base, codes: ['BTCUSDT', 'ETHUSDT'] },
      { ...base, interval: '1h' as const },
      { ...base, untilMs: 3 },
      { ...base, output: '/lake' },
      { ...base, name: 'q' },
    ];
    expect(new Set([base, ...others].map(sliceJobId)).size).toBe(7);
  });

  it('a slice of one code keeps the id a slice of one series had, and such a job reads as that slice', () => {
    // The id 0.x gave [p, BTCUSDT, 1m, 1, 2] (pinned: a queue filled before the change adds nothing twice).
    expect(sliceJobId(base)).toBe('slice-' + createHash('sha256').update(JSON.stringify(['p', 'BTCUSDT', '1m', 1, 2, '', ''])).digest('hex').slice(0, 32));
    const old = { pipeline: 'p.yaml', name: 'p', code: 'BTCUSDT', interval: '1m' as const, fromMs: 1, untilMs: 2, partition: 'x', requests: 3 };
    expect(sliceOfJobData(old)).toEqual({ pipeline: 'p.yaml', name: 'p', codes: ['BTCUSDT'], interval: '1m', fromMs: 1, untilMs: 2, partition: 'x', requests: 3 });
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
