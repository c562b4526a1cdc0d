/**
 * The codec of a table format by name (`parquet`, `arrow`), for code that reads or rewrites a
 * lake's files whatever wrote them (compaction, migration, the row reader). Loaded on first use:
 * the Parquet codec compiles WebAssembly (zstd, parquet-wasm) that footer reads never need.
 */
import type { TableEncoder } from './encode/table-encoder.js';
import { TABLE_DEFAULTS } from './table-defaults.js';
import type { TimestampUnit } from './parquet/timestamp-units.js';

/** The codec of `format`; undefined for a format the lake does not write. `timestampUnit` 'us': a Delta table's Parquet files. */
export async function tableCodec(format: string, timestampUnit: TimestampUnit = 'ms'): Promise<TableEncoder | undefined> {
  if (format === 'parquet') return (await import('./parquet/parquet-encoder.js')).parquetEncoder({ rowGroupRows: TABLE_DEFAULTS.rowGroupRows, timestampUnit });
  if (format === 'arrow') return (await import('./arrow/arrow-encoder.js')).arrowEncoder();
  return undefined;
}
