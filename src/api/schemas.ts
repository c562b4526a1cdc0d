/**
 * One zod schema per endpoint response. Prices, volumes and timestamps stay the wire STRINGS:
 * decimals are parsed later by the transforms, never through a JS number here. Market-data
 * records are checked per record downstream (see wireRecord).
 * Unknown fields are dropped (R5: a spec-valid service may add any field; we keep none, so an
 * added field of any type can neither fail an answer nor leak into an output).
 */
import * as z from 'zod';
import type { WireKline } from '../core/wire.js';

/** The first level every market-data answer has (W7). `data` is checked per endpoint. */
export const marketEnvelopeSchema = z.object({
  ret: z.number().int(),
  msg: z.string(),
  trace: z.string().optional(),
  data: z.unknown().optional(),
});

/**
 * A record of a list is checked per record, not here: one bad bar or tick must not fail its page
 * (issue 12). The envelope and the list containers are checked; each element keeps only the
 * fields named (R5) and flows on as the wire gave it, whatever their types, so parse-decimals can
 * reject it by code, field and value. An element that is not an object flows on unchanged (and is
 * rejected there as a whole). The static type is the documented shape: downstream code reads every
 * field as possibly anything.
 */
function wireRecord<T>(fields: readonly (keyof T & string)[]) {
  return z.unknown().transform((value): T => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value as T;
    const out: Record<string, unknown> = {};
    for (const f of fields) if (f in value) out[f] = (value as Record<string, unknown>)[f];
    return out as T;
  });
}

/** The documented K-line (2.1, the wire shape of core); checked per record by parse-decimals, not by the client. */
export type KlineBar = WireKline;

export const KLINE_FIELDS = ['timestamp', 'open_price', 'close_price', 'high_price', 'low_price', 'volume', 'turnover'] as const;

export const klineBarSchema = wireRecord<KlineBar>(KLINE_FIELDS);

export const klineDataSchema = z.object({
  code: z.string(),
  kline_type: z.number().int(),
  kline_list: z.array(klineBarSchema),
});

export interface DepthLevel {
  price?: string;
  volume?: string;
}

/** The documented order-book tick (2.2); checked per record by parse-decimals. */
export interface DepthTick {
  code?: string;
  seq?: string;
  tick_time?: string;
  bids?: DepthLevel[];
  asks?: DepthLevel[];
}

/** The documented trade tick (2.3); checked per record by parse-decimals. */
export interface TradeTick {
  code?: string;
  seq?: string;
  tick_time?: string;
  price?: string;
  volume?: string;
  turnover?: string;
  trade_direction?: 0 | 1 | 2;
}

export const depthTickSchema = wireRecord<DepthTick>(['code', 'seq', 'tick_time', 'bids', 'asks']);
export const tradeTickSchema = wireRecord<TradeTick>(['code', 'seq', 'tick_time', 'price', 'volume', 'turnover', 'trade_direction']);

export const depthDataSchema = z.object({ tick_list: z.array(depthTickSchema) });
export const tradeDataSchema = z.object({ tick_list: z.array(tradeTickSchema) });

export const batchKlineSeriesSchema = z.object({
  code: z.string(),
  kline_type: z.number().int(),
  kline_data: z.array(klineBarSchema),
});
/**
 * Each series of the list is checked on its own (batchKlineOnce): one that is not a series (no
 * code, a kline_type that is not a whole number, bars that are not a list) is left out and named,
 * and the item it stood for is asked again, instead of failing the answer of every other series.
 */
export const batchKlineDataSchema = z.object({ kline_list: z.array(z.unknown()) });

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

const HALT_FIELD_SET: ReadonlySet<string> = new Set(HALT_FIELDS);

/**
 * Suspension record (2.4, S3, S4): checked per record downstream (normalize-halts), not here, so
 * one bad record is a rejected record and the rest of the page lands. Only the documented fields
 * are kept (R5), as sent; an element that is not an object is passed on to be rejected by name.
 */
export const haltRecordSchema = z.unknown().transform((record): Record<string, string | null> => {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record as Record<string, string | null>;
  // Absent stays absent (S4: absent, null and "" all mean "no value"), so records compare as sent.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (HALT_FIELD_SET.has(k) && v !== undefined) out[k] = v;
  return out as Record<string, string | null>;
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

export type KlineData = z.infer<typeof klineDataSchema>;
export type BatchKlineSeries = z.infer<typeof batchKlineSeriesSchema>;
export type HaltRecord = z.infer<typeof haltRecordSchema>;
export type HaltResponse = z.infer<typeof haltResponseSchema>;
