/** The one spelling of a kline partition folder: what the sink writes is what the planner and the queue name. */
import { describe, expect, it } from 'vitest';
import { klinePartition } from '../../src/core/kline-partition.js';
import type { Interval } from '../../src/core/records.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { findProduct } from '../../src/catalog/index.js';
import { partitionsWithBars } from '../../src/sources/kline-history/planned-partitions.js';
import { planSlices } from '../../src/queue/plan-slices.js';

const at = (iso: string) => Date.parse(iso);

describe('klinePartition', () => {
  it('intraday bars by UTC day, daily and longer by UTC year with the hive NULL date', () => {
    expect(klinePartition('1m', at('2026-11-20T23:59:00Z'))).toBe('interval=1m/year=2026/date=2026-11-20');
    expect(klinePartition('4h', at('2025-12-31T20:00:00Z'))).toBe('interval=4h/year=2025/date=2025-12-31');
    expect(klinePartition('1d', at('2026-07-01T00:00:00Z'))).toBe('interval=1d/year=2026/date=__HIVE_DEFAULT_PARTITION__');
    expect(klinePartition('1mo', at('2024-02-01T00:00:00Z'))).toBe('interval=1mo/year=2024/date=__HIVE_DEFAULT_PARTITION__');
  });

  it('encodes an interval that is not one, as any partition value: no folder escapes', () => {
    expect(klinePartition('../x' as Interval, 0)).toBe('interval=%2E%2E%2Fx/year=1970/date=1970-01-01');
  });

  it('the sink, the planner and the slices name the same folder', () => {
    for (const [interval, iso] of [['1m', '2026-11-20T10:00:00Z'], ['1d', '2026-03-04T00:00:00Z']] as const) {
      const ms = at(iso);
      const row = { code: 'BTCUSDT', interval, ts: ms, open: '1', high: '1', low: '1', close: '1', volume: '1', turnover: '1', final: true };
      const written = klineSpec.partition(row);
      expect(partitionsWithBars(findProduct('BTCUSDT')!, interval, ms, ms + 1, ms)).toEqual([written]);
      expect(planSlices([{ code: 'BTCUSDT', interval, walkable: true }], ms, ms).map((s) => s.partition)).toEqual([written]);
    }
  });
});
