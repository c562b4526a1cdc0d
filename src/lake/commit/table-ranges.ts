/**
 * The key ranges and series statistics of rows held as Arrow columns, without building rows: from
 * the key columns (columnar-keys.ts) when the spec names them, else the spec's group(), order(),
 * seriesKey() and seriesTime() read a view whose fields are the columns'
 * cells (timestamps as epoch-ms numbers, as fromTable gives them), so only the key and time
 * columns are touched. A field that lives in the partition path only (interval, exchange) is
 * taken from there.
 */
import type { Table, Vector } from 'apache-arrow';
import type { DatasetSpec } from '../datasets/dataset-spec.js';
import { widenRange, type KeyRanges } from './key-ranges.js';
import { partitionKeys } from '../partition-path.js';
import { countRow, type SeriesMap } from '../series-stats.js';
import { keyColumns, rangesAndSeries } from './columnar-keys.js';
import type { TimeRuns } from './time-runs.js';

export interface TableKeys {
  readonly ranges: KeyRanges;
  readonly series: SeriesMap;
  /** Only from the key columns; the row path lists none. */
  readonly times?: TimeRuns;
}

export function tableKeys<R>(table: Table, spec: DatasetSpec<R>, partition: string): TableKeys {
  const keyed = spec.columnarKeys;
  if (keyed !== undefined && [keyed.group, keyed.order, keyed.time].every((name) => table.schema.fields.some((f) => f.name === name))) {
    return rangesAndSeries(keyColumns(table.batches, keyed));
  }
  const ranges: KeyRanges = {};
  const series: SeriesMap = new Map();
  const hive = partitionKeys(partition);
  for (const batch of table.batches) {
    const columns = new Map<string, Vector | null>();
    let i = 0;
    const view = new Proxy(
      {},
      {
        get(_target, name) {
          const key = String(name);
          let column = columns.get(key);
          if (column === undefined) {
            column = batch.getChild(key);
            columns.set(key, column);
          }
          if (column === null) return hive[key] ?? null;
          const value: unknown = column.get(i) ?? null;
          return typeof value === 'bigint' ? Number(value) : value;
        },
      },
    ) as R;
    for (i = 0; i < batch.numRows; i++) {
      widenRange(ranges, spec.group(view), spec.order(view));
      countRow(series, spec.seriesKey(view), spec.seriesTime(view));
    }
  }
  return { ranges, series };
}
