/** The config shape of a DECIMAL(precision, scale) column type, shared by transforms and sinks. */
import * as z from 'zod';
import { MAX_DECIMAL128_PRECISION } from './decimal.js';

export const decimalTypeSchema = z
  .strictObject({
    precision: z.number().int().min(1).max(MAX_DECIMAL128_PRECISION).describe('Total digits, 1..38.'),
    scale: z.number().int().min(0).max(MAX_DECIMAL128_PRECISION).describe('Digits after the point, 0..precision.'),
  })
  .refine((t) => t.scale <= t.precision, {
    error: (issue) => {
      const t = issue.input as { precision?: unknown; scale?: unknown } | undefined;
      return `scale ${String(t?.scale)} must not exceed precision ${String(t?.precision)}`;
    },
  });
