/**
 * parquet: hive-partitioned Parquet files (ZSTD, DECIMAL, UTC timestamps), staged and made visible
 * atomically at commit, merged by primary key when a partition is written again.
 */
import * as z from 'zod';
import type { SinkDefinition } from '../../core/definition.js';
import { ROW_KINDS } from '../../core/record-kinds.js';
import { datasetSpec } from '../../lake/datasets/index.js';
import { PartitionedSink } from '../../lake/commit/partitioned-sink.js';
import { tableSinkConfigShape } from '../shared/table-sink-config.js';
import { envStorage } from '../shared/env-storage.js';
import { TABLE_DEFAULTS } from '../../lake/table-defaults.js';
import { parquetEncoder } from '../../lake/parquet/parquet-encoder.js';
import { parquetPool } from '../../lake/parquet/parquet-pool.js';
import { poolAfterRows } from '../../lake/encode/pool-after-rows.js';
import { tableKindOf, tableKindSchema } from '../shared/table-kind-config.js';
import { localStorage } from '../../lake/storage/local-storage.js';

/** Ceiling of `encodeWorkers` (see the key). */
export const MAX_ENCODE_WORKERS = 64;

export const parquetSinkConfigSchema = z.strictObject({
  ...tableSinkConfigShape,
  /** Rows per Parquet row group. */
  rowGroupRows: z.number().int().min(1024).default(TABLE_DEFAULTS.rowGroupRows).describe('Rows per Parquet row group.'),
  /** Worker threads that encode and write files while the main thread goes on parsing; 0 encodes on the main thread. */
  table: tableKindSchema,
  // Bounded: each thread is a V8 isolate with its own parquet-wasm and up to two files' columns in
  // memory, and past the machine's cores another adds only memory. 64 is above the cores of the
  // hosts this runs on; an unbounded count once went on to `new Array(2^53-1)` in the pool.
  encodeWorkers: z.number().int().min(0).max(MAX_ENCODE_WORKERS).default(1).describe('Worker threads that encode and write Parquet files while rows are parsed; 0 encodes on the main thread. They start as files wait for them, up to this many.'),
  /** A run that writes fewer rows than this never pays for starting a worker thread. */
  encodeWorkersAfterRows: z
    .number()
    .int()
    .min(0)
    .default(TABLE_DEFAULTS.encodeWorkersAfterRows)
    .describe('Rows encoded on the main thread before the encode workers start, so a small run never pays for starting a thread; 0 starts them with the first file.'),
});

export type ParquetSinkConfig = z.infer<typeof parquetSinkConfigSchema>;

export const parquetSink: SinkDefinition<ParquetSinkConfig> = {
  kind: 'sink',
  type: 'parquet',
  writesLake: true,
  summary: 'Hive-partitioned Parquet (ZSTD, DECIMAL(38,18), UTC timestamps), atomic commit, merge by primary key.',
  configSchema: parquetSinkConfigSchema,
  // Their dataset specs map the typed rows' columns; raw records have none of them.
  takes: ROW_KINDS,
  examples: [{}, { rowGroupRows: 131072, decimal: { precision: 38, scale: 18 } }, { maxBufferedRows: 50000 }, { encodeWorkers: 0 }, { encodeWorkersAfterRows: 0 }, { table: 'delta' }],
  create(config, env) {
    const spec = datasetSpec(env.dataset);
    const { decimal, rowGroupRows, encodeWorkers } = config;
    const storage = envStorage(env);
    // Unset: a dataset keeps its kind (a log: Delta; files without one: hive); a new one is Delta on S3, hive in a folder.
    const table = tableKindOf(config, storage ?? localStorage(env.outputDir), spec.dataset, env.tableKind);
    // A Delta table's `timestamp` is microseconds: its files store TIMESTAMP(MICROS, UTC).
    const timestampUnit = table === 'delta' ? 'us' : 'ms';
    const pool = encodeWorkers > 0 ? parquetPool(encodeWorkers, { dataset: spec.dataset, decimal, rowGroupRows, timestampUnit }) : undefined;
    return new PartitionedSink({
      outputDir: env.outputDir,
      table,
      ...(env.pipeline !== undefined ? { pipeline: env.pipeline } : {}),
      spec: spec as never,
      encoder: parquetEncoder({ rowGroupRows, timestampUnit }),
      decimal,
      maxRowsPerFile: config.maxRowsPerFile,
      maxBufferedRows: config.maxBufferedRows,
      maxBufferedBytes: config.maxBufferedBytes,
      retiredGraceMs: config.retiredGraceMs,
      storage,
      writer: pool && ((inThread) => poolAfterRows(inThread, pool, config.encodeWorkersAfterRows)),
    });
  },
};
