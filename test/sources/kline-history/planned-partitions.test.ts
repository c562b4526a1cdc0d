import { describe, expect, it } from 'vitest';
import { findProduct } from '../../../src/catalog/index.js';
import type { KlineRow } from '../../../src/core/records.js';
import { klineSpec } from '../../../src/lake/datasets/kline.js';
import { partitionsWithBars } from '../../../src/sources/kline-history/planned-partitions.js';

/** The partition the sink writes a bar of `interval` opening at `ts` into. */
const written = (interval: KlineRow['interval'], ts: number) => klineSpec.partition({ code: 'BTCUSDT', interval, ts } as KlineRow);
const btc = findProduct('BTCUSDT')!;
const NOW = Date.parse('2026-02-01T00:00:00Z');

describe('partitionsWithBars (what a kline-history plan says it will touch)', () => {
  it('names the folders exactly as the sink writes them, minute to month', () => {
    const from = Date.parse('2025-12-31T12:00:00Z');
    const to = Date.parse('2026-01-02T00:00:00Z');
    expect(partitionsWithBars(btc, '1m', from, to, NOW)).toEqual([written('1m', from), written('1m', Date.parse('2026-01-01T00:00:00Z'))]);
    expect(partitionsWithBars(btc, '1m', from, to, NOW)).toEqual(['interval=1m/year=2025/date=2025-12-31', 'interval=1m/year=2026/date=2026-01-01']);
    expect(partitionsWithBars(btc, '1d', from, to, NOW)).toEqual([written('1d', Date.parse('2026-01-01T00:00:00Z'))]);
    // Only a month bar opening in the range counts: December's opened before it.
    expect(partitionsWithBars(btc, '1mo', from, to, NOW)).toEqual(['interval=1mo/year=2026/date=__HIVE_DEFAULT_PARTITION__']);
  });
});
