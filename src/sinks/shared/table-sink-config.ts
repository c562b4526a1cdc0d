/** Config shared by the Parquet and Arrow sinks. */
import { z } from 'zod';
import { DEFAULT_DECIMAL, MAX_DECIMAL128_PRECISION } from '../../core/decimal.js';

export const decimalConfigSchema = z
  .strictObject({
    precision: z.number().int().min(1).max(MAX_DECIMAL128_PRECISION),
    scale: z.number().int().min(0).max(MAX_DECIMAL128_PRECISION),
  })
  .refine((t) => t.scale <= t.precision, { message: 'scale must not exceed precision' });

export const tableSinkConfigShape = {
  /** Physical type of every decimal column; the transform may validate narrower. */
  decimal: decimalConfigSchema.default({ ...DEFAULT_DECIMAL }),
  /** Rows per file at most (a partition with more is split). */
  maxRowsPerFile: z.number().int().min(1).default(1_000_000),
  /** Rows held in memory across partitions before the largest partition is flushed to staging. */
  maxBufferedRows: z.number().int().min(1).default(65_536),
  /** Estimated bytes held in memory before the largest partition is flushed to staging. */
  maxBufferedBytes: z.number().int().min(1024).default(48 * 1024 * 1024),
};
