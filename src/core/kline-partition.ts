/**
 * The kline dataset's partition folder of a bar (lake layout 2), the one spelling of it: the sinks
 * write it, the planner and the queue's slices name it. Intraday bars go by UTC day
 * (`interval=1m/year=2026/date=2026-11-20`); daily and longer bars by UTC year, their date the hive
 * NULL, so that every path carries the same keys and one hive glob reads the whole tree.
 */
import { HIVE_NULL } from './hive-null.js';
import { partitionSegment } from './partition-value.js';
import { LONG_INTERVALS, type Interval } from './records.js';
import { utcDate } from './time.js';

export function klinePartition(interval: Interval, ms: number): string {
  const date = utcDate(ms);
  // The interval is encoded as any partition value is: whatever a row says, no folder escapes.
  return `${partitionSegment('interval', interval)}/${partitionSegment('year', date.slice(0, 4))}/${partitionSegment('date', LONG_INTERVALS.has(interval) ? HIVE_NULL : date)}`;
}
