/**
 * Per-file statistics of an `add` (PROTOCOL.md "Per-file Statistics"), taken from the
 * `quotelake.series` summary every data file already carries: the series key column (code) and the
 * series time column (`ts`; halts' `published_at`). Only these: DECIMAL columns get none, since an
 * exact bound would have to travel as a decimal string and engines parse stats as numbers.
 * Timestamps are ISO 8601 in UTC with milliseconds (the protocol truncates stats to millis);
 * strings compare by their UTF-8 bytes, as engines compare them.
 */
import type { Dataset } from '../../core/records.js';
import type { SeriesStats } from '../series-stats.js';

/** Which file columns the series summary describes; null: the series key is a partition column. */
const SERIES_COLUMNS: Readonly<Record<Dataset, { key: string | null; time: string }>> = {
  kline: { key: 'code', time: 'ts' },
  trade: { key: 'code', time: 'ts' },
  depth: { key: 'code', time: 'ts' },
  halt: { key: null, time: 'published_at' },
};

export interface DeltaFileStats {
  numRecords: number;
  minValues: Record<string, string>;
  maxValues: Record<string, string>;
  nullCount: Record<string, number>;
}

function utf8Less(a: string, b: string): boolean {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')) < 0;
}

/** The stats of a file whose `quotelake.series` is `series` (its times are never null in our datasets). */
export function deltaStatsOfSeries(dataset: Dataset, series: ReadonlyMap<string, SeriesStats>): DeltaFileStats {
  const columns = SERIES_COLUMNS[dataset];
  let rows = 0;
  let minKey: string | undefined;
  let maxKey: string | undefined;
  let first: number | undefined;
  let last: number | undefined;
  for (const [key, s] of series) {
    rows += s.rows;
    if (minKey === undefined || utf8Less(key, minKey)) minKey = key;
    if (maxKey === undefined || utf8Less(maxKey, key)) maxKey = key;
    if (s.first !== null && (first === undefined || s.first < first)) first = s.first;
    if (s.last !== null && (last === undefined || s.last > last)) last = s.last;
  }
  const stats: DeltaFileStats = { numRecords: rows, minValues: {}, maxValues: {}, nullCount: {} };
  if (columns.key !== null && minKey !== undefined && maxKey !== undefined) {
    stats.minValues[columns.key] = minKey;
    stats.maxValues[columns.key] = maxKey;
    stats.nullCount[columns.key] = 0;
  }
  if (first !== undefined && last !== undefined) {
    stats.minValues[columns.time] = new Date(first).toISOString();
    stats.maxValues[columns.time] = new Date(last).toISOString();
    stats.nullCount[columns.time] = 0;
  }
  return stats;
}

/** The `stats` string of an `add`. */
export function statsString(stats: DeltaFileStats): string {
  return JSON.stringify(stats);
}
