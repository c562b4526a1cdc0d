/**
 * Arrow table → Parquet bytes (ZSTD, DECIMAL as FIXED_LEN_BYTE_ARRAY(16), Timestamp(ms, UTC) →
 * TIMESTAMP isAdjustedToUTC). Flat tables of REQUIRED columns (kline, trade) are written directly
 * from their Arrow buffers (direct/direct-parquet-writer.ts); nested or nullable ones (depth, halt)
 * through parquet-wasm, which also decodes every file. Every WASM object is freed after use, or the
 * WASM heap grows with each file. The footer's `created_by` is the metadata's `created_by` key
 * (file-provenance.ts), which also stays among the key-value pairs, as in Arrow files.
 */
import { DataType, tableFromIPC, tableToIPC, type Table } from 'apache-arrow';
import { assertDecimalsFit } from '../columns/decimal-guard.js';
import type { TableEncoder } from '../encode/table-encoder.js';
import { directParquetSupports, encodeDirectParquet } from './direct/direct-parquet-writer.js';
import { decodeDirectParquet } from './direct/direct-parquet-reader.js';
import { assertParquetSize } from './parquet-too-short.js';
import { parquetWasm } from './parquet-wasm.js';
import { CREATED_BY_KEY, createdBy } from '../file-provenance.js';
import { toMicros, toMillis, type TimestampUnit } from './timestamp-units.js';

export interface ParquetEncoderOptions {
  readonly rowGroupRows: number;
  readonly compressionLevel?: number;
  /** Tests and comparisons only: force parquet-wasm for every table, written or read (default: direct when it can). */
  readonly writer?: 'auto' | 'parquet-wasm';
  /** How instants are stored: 'ms' (default, hive tables) or 'us' (Delta tables); decoding always gives ms. */
  readonly timestampUnit?: TimestampUnit;
}

/** The footer's `created_by` when the metadata names none (a table encoded outside a sink). */
function createdByOf(metadata: ReadonlyMap<string, string>): string {
  return metadata.get(CREATED_BY_KEY) ?? createdBy();
}

function free(obj: { free(): void } | undefined): void {
  try {
    obj?.free();
  } catch {
    // already consumed by the call that took it
  }
}

export function parquetEncoder(options: ParquetEncoderOptions): TableEncoder {
  return {
    format: 'parquet',
    extension: '.parquet',
    encode(input, metadata) {
      const table = options.timestampUnit === 'us' ? toMicros(input) : input;
      if (options.writer !== 'parquet-wasm' && directParquetSupports(table.schema)) {
        return encodeDirectParquet(table, metadata, { rowGroupRows: options.rowGroupRows, createdBy: createdByOf(metadata) });
      }
      // parquet-wasm writes what it is given: hold every decimal to its precision first (the
      // direct writer checks each value as it encodes it).
      assertDecimalsFit(table);
      const { Compression, EnabledStatistics, Table: WasmTable, writeParquet, WriterPropertiesBuilder } = parquetWasm();
      const wasmTable = WasmTable.fromIPCStream(tableToIPC(table, 'stream'));
      let builder = new WriterPropertiesBuilder()
        .setCompression(Compression.ZSTD)
        .setMaxRowGroupSize(options.rowGroupRows)
        .setCreatedBy(createdByOf(metadata))
        // Dictionaries cost about a tenth of the encode and save nothing here: ZSTD folds a
        // column of repeated codes to the same few bytes, and prices and instants are
        // nearly all distinct.
        .setDictionaryEnabled(false)
        // min/max per column chunk are what query engines prune on; per-page statistics cost more than they save here
        .setStatisticsEnabled(EnabledStatistics.Chunk)
        .setKeyValueMetadata(new Map(metadata));
      // Decimal min/max cost about a quarter of the encode (a signed 16-byte compare per value) and
      // prune almost nothing (prices are not sorted within a file), so decimals go without them;
      // codes and instants, which queries filter on, keep theirs.
      for (const field of table.schema.fields) {
        if (DataType.isDecimal(field.type)) builder = builder.setColumnStatisticsEnabled(field.name, EnabledStatistics.None);
      }
      const props = builder.build();
      try {
        return writeParquet(wasmTable, props);
      } finally {
        free(wasmTable);
        free(props);
      }
    },
    decode(bytes): Table {
      assertParquetSize(bytes.length);
      // Files of the direct writer's shape (every kline and trade file) are read without
      // parquet-wasm: a backfill's mid-run compactions then never load it (direct-parquet-reader.ts).
      const direct = options.writer !== 'parquet-wasm' ? decodeDirectParquet(bytes) : undefined;
      if (direct !== undefined) return toMillis(direct);
      // Batches of a row group's size, not parquet-rs's 1,024 rows: far fewer Arrow objects when
      // a merge or compaction reads whole files back.
      const wasmTable = parquetWasm().readParquet(bytes, { batchSize: options.rowGroupRows });
      try {
        // A Delta table's microsecond instants come back as the sink's milliseconds (exact).
        return toMillis(tableFromIPC(wasmTable.intoIPCStream()));
      } finally {
        free(wasmTable);
      }
    },
  };
}
