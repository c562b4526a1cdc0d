/**
 * The kline dataset's partition folder of a bar (lake layout 2), the one spelling of it: the sinks
 * write it, the planner and the queue's slices name it. Intraday bars go by UTC day
 * (`interval=1m/year=2026/date=2026-11-20`); daily and longer bars by UTC year, their date the hive
 * NULL, so that every path carries the same keys and one hive glob reads the whole tree.
 */
import { HIVE_NULL } from './hive-null.js';
import { INTERVALS, LONG_INTERVALS, type Interval } from './records.js';
import { utcDate } from './time.js';

export function klinePartition(interval: Interval, ms: number): string {
  // Only a known interval names a folder: the path is safe by construction.
  if (!INTERVALS.includes(interval)) throw new RangeError(`not a K-line interval: ${JSON.stringify(interval)}`);
  const date = utcDate(ms);
  return `interval=${interval}/year=${date.slice(0, 4)}/date=${LONG_INTERVALS.has(interval) ? HIVE_NULL : date}`;
}
