/**
 * Arrow table → Parquet bytes through parquet-wasm (ZSTD, DECIMAL as FIXED_LEN_BYTE_ARRAY(16),
 * Timestamp(ms, UTC) → TIMESTAMP isAdjustedToUTC). Every WASM object is freed after use, or the
 * WASM heap grows with each file.
 */
import { tableFromIPC, tableToIPC, type Table } from 'apache-arrow';
import { Compression, readParquet, Table as WasmTable, writeParquet, WriterPropertiesBuilder } from 'parquet-wasm';
import type { TableEncoder } from '../shared/table-encoder.js';

export interface ParquetEncoderOptions {
  readonly rowGroupRows: number;
  readonly compressionLevel?: number;
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
    encode(table, metadata) {
      const wasmTable = WasmTable.fromIPCStream(tableToIPC(table, 'stream'));
      const props = new WriterPropertiesBuilder()
        .setCompression(Compression.ZSTD)
        .setMaxRowGroupSize(options.rowGroupRows)
        .setCreatedBy('quotelake')
        .setKeyValueMetadata(new Map(metadata))
        .build();
      try {
        return writeParquet(wasmTable, props);
      } finally {
        free(wasmTable);
        free(props);
      }
    },
    decode(bytes): Table {
      const wasmTable = readParquet(bytes);
      try {
        return tableFromIPC(wasmTable.intoIPCStream());
      } finally {
        free(wasmTable);
      }
    },
  };
}
