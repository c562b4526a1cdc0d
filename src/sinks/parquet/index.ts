/**
 * parquet: hive-partitioned Parquet files (ZSTD, DECIMAL, UTC timestamps), staged and made visible
 * atomically at commit, merged by primary key when a partition is written again.
 */
import { z } from 'zod';
import type { SinkDefinition } from '../../core/definition.js';
import { datasetSpec } from '../shared/datasets/index.js';
import { PartitionedSink } from '../shared/partitioned-sink.js';
import { tableSinkConfigShape } from '../shared/table-sink-config.js';
import { parquetEncoder } from './parquet-encoder.js';

export const parquetSinkConfigSchema = z.strictObject({
  ...tableSinkConfigShape,
  /** Rows per Parquet row group. */
  rowGroupRows: z.number().int().min(1024).default(131_072).describe('Rows per Parquet row group.'),
});

export type ParquetSinkConfig = z.infer<typeof parquetSinkConfigSchema>;

export const parquetSink: SinkDefinition<ParquetSinkConfig> = {
  kind: 'sink',
  type: 'parquet',
  summary: 'Hive-partitioned Parquet (ZSTD, DECIMAL(38,18), UTC timestamps), atomic commit, merge by primary key.',
  configSchema: parquetSinkConfigSchema,
  examples: [{}, { rowGroupRows: 131072, decimal: { precision: 38, scale: 18 } }, { maxBufferedRows: 50000 }],
  create(config, env) {
    return new PartitionedSink({
      outputDir: env.outputDir,
      spec: datasetSpec(env.dataset) as never,
      encoder: parquetEncoder({ rowGroupRows: config.rowGroupRows }),
      decimal: config.decimal,
      maxRowsPerFile: config.maxRowsPerFile,
      maxBufferedRows: config.maxBufferedRows,
      maxBufferedBytes: config.maxBufferedBytes,
    });
  },
};
