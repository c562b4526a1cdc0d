/**
 * arrow: the parquet sink's layout and commit protocol, as Arrow IPC files (`.arrow`, file format).
 * Its manifest is `_quotelake/manifests/<dataset>.arrow.json`, so it can share an output tree with the parquet sink.
 */
import * as z from 'zod';
import type { SinkDefinition } from '../../core/definition.js';
import { ROW_KINDS } from '../../core/record-kinds.js';
import { datasetSpec } from '../../lake/datasets/index.js';
import { PartitionedSink } from '../../lake/commit/partitioned-sink.js';
import { tableSinkConfigShape } from '../shared/table-sink-config.js';
import { envStorage } from '../shared/env-storage.js';
import { arrowEncoder } from '../../lake/arrow/arrow-encoder.js';
import { refuseDelta, tableKindSchema } from '../shared/table-kind-config.js';

export const arrowSinkConfigSchema = z.strictObject({ ...tableSinkConfigShape, table: tableKindSchema.describe('Only `hive`: Arrow IPC files are no Delta data files (`delta` is refused; use the parquet sink).') });

export type ArrowSinkConfig = z.infer<typeof arrowSinkConfigSchema>;

export const arrowSink: SinkDefinition<ArrowSinkConfig> = {
  kind: 'sink',
  type: 'arrow',
  writesLake: true,
  summary: 'Hive-partitioned Arrow IPC files, same layout and atomic commit as the parquet sink.',
  configSchema: arrowSinkConfigSchema,
  // Their dataset specs map the typed rows' columns; raw records have none of them.
  takes: ROW_KINDS,
  examples: [{}, { maxRowsPerFile: 500000 }],
  lint: (config) => refuseDelta(config, 'arrow'),
  create(config, env) {
    return new PartitionedSink({
      outputDir: env.outputDir,
      spec: datasetSpec(env.dataset) as never,
      encoder: arrowEncoder(),
      decimal: config.decimal,
      maxRowsPerFile: config.maxRowsPerFile,
      maxBufferedRows: config.maxBufferedRows,
      maxBufferedBytes: config.maxBufferedBytes,
      retiredGraceMs: config.retiredGraceMs,
      storage: envStorage(env),
    });
  },
};
