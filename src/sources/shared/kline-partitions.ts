/** The kline dataset's partition folders a time range falls into (core/kline-partition.ts spells each). */
import { klinePartition } from '../../core/kline-partition.js';
import { LONG_INTERVALS, type Interval } from '../../core/records.js';

const DAY_MS = 86_400_000;

export function klinePartitions(interval: Interval, fromMs: number, toMs: number): string[] {
  if (!(toMs > fromMs)) return [];
  const out: string[] = [];
  if (LONG_INTERVALS.has(interval)) {
    const y0 = new Date(fromMs).getUTCFullYear();
    const y1 = new Date(toMs - 1).getUTCFullYear();
    for (let y = y0; y <= y1; y++) out.push(klinePartition(interval, Date.UTC(y, 0, 1)));
    return out;
  }
  for (let d = Math.floor(fromMs / DAY_MS); d <= Math.floor((toMs - 1) / DAY_MS); d++) out.push(klinePartition(interval, d * DAY_MS));
  return out;
}
