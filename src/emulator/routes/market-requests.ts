import * as z from 'zod';

/**
 * Shapes of the market-data requests (spec 4.2-4.4, W10). Unknown fields are ignored. Parsing is
 * two-level on purpose: a wrong first level is `request header param invalid`, a wrong `data` field
 * is `request data param invalid` (W7).
 */

const firstLevel = z.object({
  trace: z.string(),
  data: z.record(z.string(), z.unknown()),
});

/**
 * W5: any count above 500 is served as 500, even one past 2^53 (which z.int() would refuse) or past
 * the largest double (JSON.parse reads a 309-digit integer, or 1e309, as Infinity, which z.number() refuses).
 */
const klineCount = z
  .union([z.number(), z.literal(Number.POSITIVE_INFINITY), z.literal(Number.NEGATIVE_INFINITY)])
  .refine((n) => Number.isInteger(n) || !Number.isFinite(n))
  .transform((n) => (Number.isSafeInteger(n) ? n : n > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER));

const klineItem = z.object({
  code: z.string(),
  kline_type: z.int(),
  kline_timestamp_end: z.int(),
  query_kline_num: klineCount,
  adjust_type: z.int(),
});
export type KlineItem = z.infer<typeof klineItem>;

const klineData = klineItem;

const tickData = z.object({
  // A code of another type is a wrong data field (W7: 400), as in /kline; an absent one (spec 4.3
  // does not require it) is no code the service knows: 600.
  symbol_list: z.array(z.object({ code: z.string().optional() })).min(1),
});

const batchData = z.object({
  data_list: z.array(klineItem).min(1),
});

export type ParseFailure = { ok: false; ret: 400 | 601; msg: string; trace: string };
export type Parsed<T> = { ok: true; trace: string; data: T } | ParseFailure;

export const MSG = {
  ok: 'ok',
  header: 'request header param invalid',
  data: 'request data param invalid',
  token: 'token invalid',
  rate: 'rate limit',
  daily: 'daily limit exceeded',
  code: 'code invalid',
  empty: 'body empty',
  unauthorized: 'code unauthorized',
  tooMany: 'too many requests',
} as const;

/** Best-effort trace of a document that failed to parse further, so the error still echoes it. */
function traceOf(doc: unknown): string {
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const t = (doc as Record<string, unknown>).trace;
    if (typeof t === 'string') return t;
  }
  return '';
}

function parseDocument<T>(text: string | undefined, schema: z.ZodType<T>): Parsed<T> {
  if (text === undefined || text.trim() === '') return { ok: false, ret: 601, msg: MSG.empty, trace: '' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    // SyntaxError, or RangeError from absurd nesting: either way the first level is unreadable.
    return { ok: false, ret: 400, msg: MSG.header, trace: '' };
  }
  let top: z.infer<typeof firstLevel>;
  try {
    const r = firstLevel.safeParse(doc);
    if (!r.success) return { ok: false, ret: 400, msg: MSG.header, trace: traceOf(doc) };
    top = r.data;
  } catch {
    return { ok: false, ret: 400, msg: MSG.header, trace: traceOf(doc) };
  }
  try {
    const d = schema.safeParse(top.data);
    if (!d.success) return { ok: false, ret: 400, msg: MSG.data, trace: top.trace };
    return { ok: true, trace: top.trace, data: d.data };
  } catch {
    return { ok: false, ret: 400, msg: MSG.data, trace: top.trace };
  }
}

export const parseKlineQuery = (text: string | undefined): Parsed<KlineItem> => parseDocument(text, klineData);
export const parseTickQuery = (text: string | undefined): Parsed<{ symbol_list: { code?: unknown }[] }> =>
  parseDocument(text, tickData);
export const parseBatchBody = (text: string | undefined): Parsed<{ data_list: KlineItem[] }> =>
  parseDocument(text, batchData);
