/**
 * The items of one /batch-kline answer, one per series. A service may send a series twice (in one
 * answer, or in the answer to a re-ask of items it left out): its bars are put together, so that an
 * identical repeat is one bar and two different bars under one stamp are both rejected by
 * pageOf (kline-records.ts), instead of one silently replacing the other at the merge.
 */
import type { BatchKlineSeries } from '../../api/index.js';

export function seriesOfAnswer(items: readonly BatchKlineSeries[]): BatchKlineSeries[] {
  const byKey = new Map<string, BatchKlineSeries>();
  for (const item of items) {
    const key = `${item.code}\u0000${item.kline_type}`;
    const before = byKey.get(key);
    byKey.set(key, before === undefined ? item : { ...before, kline_data: [...before.kline_data, ...item.kline_data] });
  }
  return [...byKey.values()];
}
