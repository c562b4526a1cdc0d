import { describe, expect, it } from 'vitest';
import type { KlineRow } from '../../../src/core/records.js';
import { klineSpec } from '../../../src/lake/datasets/kline.js';
import { klinePartitions } from '../../../src/sources/shared/kline-partitions.js';

/** The partition the sink writes a bar of `interval` opening at `ts` into. */
const written = (interval: KlineRow['interval'], ts: number) => klineSpec.partition({ code: 'BTCUSDT', interval, ts } as KlineRow);

describe('klinePartitions (what a plan says it will touch)', () => {
  it('names the folders exactly as the sink writes them, minute to month', () => {
    const from = Date.parse('2025-12-31T12:00:00Z');
    const to = Date.parse('2026-01-02T00:00:00Z');
    expect(klinePartitions('1m', from, to)).toEqual([written('1m', from), written('1m', Date.parse('2026-01-01T00:00:00Z'))]);
    expect(klinePartitions('1m', from, to)).toEqual(['interval=1m/year=2025/date=2025-12-31', 'interval=1m/year=2026/date=2026-01-01']);
    expect(klinePartitions('1d', from, to)).toEqual([written('1d', from), written('1d', Date.parse('2026-01-01T00:00:00Z'))]);
    expect(klinePartitions('1mo', from, to)).toEqual(['interval=1mo/year=2025/date=__HIVE_DEFAULT_PARTITION__', 'interval=1mo/year=2026/date=__HIVE_DEFAULT_PARTITION__']);
  });
});
