/**
 * The kline dataset's partition folders a time range falls into, as the sinks name them (layout 2:
 * `interval=1m/year=2026/date=2026-11-20`; daily and longer bars by year, their date the hive NULL).
 */
import { HIVE_NULL } from '../../core/hive-null.js';
import { LONG_INTERVALS, type Interval } from '../../core/records.js';

const DAY_MS = 86_400_000;

export function klinePartitions(interval: Interval, fromMs: number, toMs: number): string[] {
  if (!(toMs > fromMs)) return [];
  const out: string[] = [];
  if (LONG_INTERVALS.has(interval)) {
    const y0 = new Date(fromMs).getUTCFullYear();
    const y1 = new Date(toMs - 1).getUTCFullYear();
    for (let y = y0; y <= y1; y++) out.push(`interval=${interval}/year=${y}/date=${HIVE_NULL}`);
    return out;
  }
  for (let d = Math.floor(fromMs / DAY_MS); d <= Math.floor((toMs - 1) / DAY_MS); d++) {
    const date = new Date(d * DAY_MS).toISOString().slice(0, 10);
    out.push(`interval=${interval}/year=${date.slice(0, 4)}/date=${date}`);
  }
  return out;
}
