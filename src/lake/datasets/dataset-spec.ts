/**
 * What the partitioned sinks need to know about a dataset: how a row maps to a partition, its
 * primary key (for merges), and how rows become Arrow columns and back.
 */
import type { Data, Table } from 'apache-arrow';
import type { DecimalType } from '../../core/decimal.js';
import type { Dataset } from '../../core/records.js';
import type { ColumnBuilder } from '../columns/column-builder.js';
import type { DecimalCheck } from '../columns/decimal-misfit.js';

export type Order = number | string;

/**
 * The key columns by name, for merges and de-duplication on columns (commit/columnar-keys.ts):
 * `group` (also the series key of `quotelake.series`), `order` (instants or integers, or digit
 * strings), `time` (the series time) and `sticky`, a boolean whose set value is never replaced by
 * an unset one (the spec's `prefer`, expressed on a column).
 */
export interface ColumnarKeySpec {
  readonly group: string;
  readonly order: string;
  readonly time: string;
  readonly sticky?: string;
}

export interface DatasetSpec<R> {
  readonly dataset: Dataset;
  /** Relative partition path of a row, already sanitised, e.g. `interval=1m/year=2026/date=2026-11-21`. */
  partition(row: R): string;
  /** Rows of one group are ordered by `order`; (group, order) is the primary key within a partition. */
  group(row: R): string;
  order(row: R): Order;
  /** The series a row belongs to in `quotelake.series` (series-stats.ts): its code; a halt's exchange. */
  seriesKey(row: R): string;
  /** The row's time in `quotelake.series`, epoch ms (kline bar open, trade/depth `ts`, halt `published_at`). */
  seriesTime(row: R): number | null;
  /**
   * Optional, for partitions by time: the first instant (epoch ms) of the row's partition, so that
   * a batch's `settledFrom` finishes the partitions no later row can reach.
   */
  partitionStart?(row: R): number;
  /** Which of two rows with the same key survives a merge; default the newer. */
  prefer?(older: R, newer: R): R;
  /** Key columns for the columnar merge; absent: merges build rows (composite keys, e.g. halts). */
  readonly columnarKeys?: ColumnarKeySpec;
  /** Merge every file of a touched partition, whatever the key ranges (small datasets). */
  readonly alwaysMerge?: boolean;
  /** Rough in-memory bytes per row, for the buffer limit. */
  bytesPerRow(row: R): number;
  /** Fresh buffers only: the sink may move them to an encode worker (see ColumnBuilder.columns). */
  columns(rows: readonly R[], decimal: DecimalType): Data[];
  /** Optional: buffer rows as columns on arrival (same columns and metadata as `columns`/`metadata`). */
  builder?(decimal: DecimalType): ColumnBuilder<R>;
  /** The check of a row's decimals against the sink's DECIMAL(p,s) (decimal-misfit.ts); none: no decimals. */
  decimalCheck?(decimal: DecimalType): DecimalCheck<R>;
  /**
   * Rows of a file read back. `partition` is the file's partition path (relative to the dataset
   * folder): columns that live in the path only (interval, exchange) are taken from it; a file of
   * layout 1 that still carries such a column is read from the column.
   */
  fromTable(table: Table, partition: string): R[];
  /** File metadata beyond the provenance keys (file-provenance.ts), e.g. `quotelake.ts`, `quotelake.source_endpoint`. */
  metadata(rows: readonly R[]): Record<string, string>;
}

/** Numbers numerically; digit strings (sequence numbers) by length then text, i.e. numerically. */
export function compareOrder(a: Order, b: Order): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}
