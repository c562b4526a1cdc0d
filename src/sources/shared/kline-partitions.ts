/** The kline dataset's partition folders a time range falls into (as the sinks name them). */
import { LONG_INTERVALS, type Interval } from '../../core/records.js';

const DAY_MS = 86_400_000;

export function klinePartitions(interval: Interval, fromMs: number, toMs: number): string[] {
  if (!(toMs > fromMs)) return [];
  const out: string[] = [];
  if (LONG_INTERVALS.has(interval)) {
    const y0 = new Date(fromMs).getUTCFullYear();
    const y1 = new Date(toMs - 1).getUTCFullYear();
    for (let y = y0; y <= y1; y++) out.push(`interval=${interval}/year=${y}`);
    return out;
  }
  for (let d = Math.floor(fromMs / DAY_MS); d <= Math.floor((toMs - 1) / DAY_MS); d++) {
    out.push(`interval=${interval}/date=${new Date(d * DAY_MS).toISOString().slice(0, 10)}`);
  }
  return out;
}
