/** Config shared by the Parquet and Arrow sinks. */
import * as z from 'zod';
import { DEFAULT_DECIMAL } from '../../core/decimal.js';
import { decimalTypeSchema } from '../../core/decimal-config.js';
import { outputSetting, SINK_OUTPUT_DESCRIPTION } from '../../core/output-setting.js';
import { TABLE_DEFAULTS } from '../../lake/table-defaults.js';

export const tableSinkConfigShape = {
  output: outputSetting.optional().describe(SINK_OUTPUT_DESCRIPTION),
  /** Physical type of every decimal column; the transform may validate narrower. */
  decimal: decimalTypeSchema.default({ ...DEFAULT_DECIMAL }).describe('Physical DECIMAL(precision, scale) of every decimal column (default 38,18).'),
  /** Rows per file at most (a partition with more is split). */
  maxRowsPerFile: z.number().int().min(1).default(TABLE_DEFAULTS.maxRowsPerFile).describe('Rows per file at most; a partition with more is split.'),
  /** Rows held in memory across partitions before the largest partition is flushed to staging. */
  maxBufferedRows: z.number().int().min(1).default(TABLE_DEFAULTS.maxBufferedRows).describe('Rows held in memory before the largest partition is flushed to staging.'),
  /** Estimated bytes held in memory before the largest partition is flushed to staging. */
  maxBufferedBytes: z.number().int().min(1024).default(TABLE_DEFAULTS.maxBufferedBytes).describe('Estimated bytes held in memory before the largest partition is flushed to staging.'),
  /** How long a file replaced by a merge or compaction stays on disk for readers of the previous manifest. */
  retiredGraceMs: z
    .number()
    .int()
    .min(0)
    .default(TABLE_DEFAULTS.retiredGraceMs)
    .describe('Milliseconds a file replaced by a merge or compaction stays on disk (listed as retired) for readers of the previous manifest; a later commit or `quotelake compact` deletes it.'),
};
