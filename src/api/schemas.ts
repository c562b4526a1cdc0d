/**
 * One zod schema per endpoint response. Prices, volumes and timestamps stay the wire STRINGS:
 * decimals are parsed later by the transforms, never through a JS number here.
 * Unknown fields are dropped (R5: a spec-valid service may add any field; we keep none, so an
 * added field of any type can neither fail an answer nor leak into an output).
 */
import { z } from 'zod';

const wireString = z.string();

/** The first level every market-data answer has (W7). `data` is checked per endpoint. */
export const marketEnvelopeSchema = z.object({
  ret: z.number().int(),
  msg: z.string(),
  trace: z.string().optional(),
  data: z.unknown().optional(),
});

export const klineBarSchema = z.object({
  timestamp: wireString,
  open_price: wireString,
  close_price: wireString,
  high_price: wireString,
  low_price: wireString,
  volume: wireString,
  turnover: wireString,
});

export const klineDataSchema = z.object({
  code: z.string(),
  kline_type: z.number().int(),
  kline_list: z.array(klineBarSchema),
});

const levelSchema = z.object({
  price: wireString.optional(),
  volume: wireString.optional(),
});

export const depthTickSchema = z.object({
  code: z.string().optional(),
  seq: wireString.optional(),
  tick_time: wireString.optional(),
  bids: z.array(levelSchema).optional(),
  asks: z.array(levelSchema).optional(),
});

export const tradeTickSchema = z.object({
  code: z.string().optional(),
  seq: wireString.optional(),
  tick_time: wireString.optional(),
  price: wireString.optional(),
  volume: wireString.optional(),
  turnover: wireString.optional(),
  trade_direction: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
});

export const depthDataSchema = z.object({ tick_list: z.array(depthTickSchema) });
export const tradeDataSchema = z.object({ tick_list: z.array(tradeTickSchema) });

export const batchKlineSeriesSchema = z.object({
  code: z.string(),
  kline_type: z.number().int(),
  kline_data: z.array(klineBarSchema),
});
export const batchKlineDataSchema = z.object({ kline_list: z.array(batchKlineSeriesSchema) });

/** The fields of a suspension record in the three layouts (S3); any other field is dropped (R5). */
export const HALT_FIELDS = [
  'symbol',
  'symbolName',
  'haltReason',
  'haltDate',
  'haltTime',
  'haltPeriod',
  'haltDateTime',
  'resumeDate',
  'resumeTime',
  'resumeDateTime',
  'sourceExchange',
  'pauseThresholdPrice',
  'publishDate',
] as const;

const haltField = z.union([z.string(), z.null()]).optional();

/** Suspension record (2.4, S3, S4): every field a string; nullable ones may be null, "" or absent. */
export const haltRecordSchema = z
  .object(Object.fromEntries(HALT_FIELDS.map((f) => [f, haltField])) as Record<(typeof HALT_FIELDS)[number], typeof haltField>)
  .transform((record) => {
    // Absent stays absent (S4: absent, null and "" all mean "no value"), so records compare as sent.
    const out: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
    return out;
  });

export const haltResponseSchema = z.object({
  success: z.literal(true),
  timestamp: z.string(),
  totalCount: z.number().int(),
  data: z.array(haltRecordSchema),
  totalPages: z.number().int().optional(),
  currentPage: z.number().int().optional(),
  currentSize: z.number().int().optional(),
});

/** Any suspension failure (7.2, S5): HTTP 500 with this body. */
export const haltErrorSchema = z.object({ success: z.literal(false), error: z.string() });

export type KlineBar = z.infer<typeof klineBarSchema>;
export type KlineData = z.infer<typeof klineDataSchema>;
export type DepthTick = z.infer<typeof depthTickSchema>;
export type TradeTick = z.infer<typeof tradeTickSchema>;
export type BatchKlineSeries = z.infer<typeof batchKlineSeriesSchema>;
export type HaltRecord = z.infer<typeof haltRecordSchema>;
export type HaltResponse = z.infer<typeof haltResponseSchema>;
