import type { Family, Product } from '../../catalog/types.js';
import type { EmulatorBackends } from '../backends.js';
import type { Behaviours } from '../behaviours/behaviours.js';
import { klineListChunks } from '../http/kline-json.js';
import type { Reply } from '../http/send.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { TokenEntry } from '../plans-file.js';
import type { PlanLimits } from '../plans.js';
import { MSG, parseBatchBody, parseKlineQuery, parseTickQuery, type KlineItem } from './market-requests.js';
import type { MarketOperation } from './route-table.js';

export const MAX_KLINES = 500;

export interface MarketRequest {
  family: Family;
  op: MarketOperation;
  token: string | undefined;
  entry: TokenEntry | undefined;
  /** The `query` parameter; undefined when absent. */
  query: string | undefined;
  /** The `query` parameter was present but not valid percent-encoding. */
  queryUndecodable: boolean;
  /** POST body of /batch-kline. */
  body: string | undefined;
  nowMs: number;
}

export interface MarketContext {
  backends: EmulatorBackends;
  /** null = limits off (benchmarks), or the request must not count (a truncated answer). */
  limiter: RateLimiter | null;
  /** The behaviours R1, R2, R4, R5, R7 of this token; undefined (or inactive) = the plain answers. */
  behaviours?: Behaviours | undefined;
}

const envelope = (ret: number, msg: string, trace: string, data: unknown = {}): Reply => ({
  status: 200,
  body: { ret, msg, trace, data },
});

type Resolved = { ok: true; product: Product } | { ok: false; ret: 600 | 604 };

/** Code → product under this path's family and the plan's scope (600 unknown/wrong family, 604 scope). */
function resolve(code: unknown, family: Family, plan: PlanLimits, backends: EmulatorBackends): Resolved {
  if (typeof code !== 'string' || code === '') return { ok: false, ret: 600 };
  const product = backends.findProduct(code);
  if (product === undefined || product.code !== code || product.family !== family) return { ok: false, ret: 600 };
  if (plan.market !== null && (product.family !== 'stock' || product.market !== plan.market)) {
    return { ok: false, ret: 604 };
  }
  return { ok: true, product };
}

/** W4, W5, W6 on a K-line item whose code is known; returns true when valid. */
function klineItemValid(item: KlineItem, product: Product, batch: boolean): boolean {
  if (item.kline_type < 1 || item.kline_type > 10) return false;
  if ((item.kline_type === 6 || item.kline_type === 7) && !product.supportsMultiHourBars) return false;
  if (item.adjust_type !== 0) return false;
  if (item.query_kline_num <= 0) return false;
  if (batch && item.query_kline_num > 2) return false;
  if (item.kline_timestamp_end < 0) return false;
  if (item.kline_timestamp_end !== 0 && !product.endTimestampSupported) return false;
  return true;
}

const unresolvedMsg = (ret: 600 | 604): string => (ret === 600 ? MSG.code : MSG.unauthorized);

/**
 * One market-data request in the order of limits-rules.md: token, daily cap, windows (the limiter),
 * then validation and service. Parsing happens first only to learn the trace; it counts nothing.
 */
export function handleMarket(req: MarketRequest, ctx: MarketContext): Reply {
  const parsed =
    req.op === 'batch-kline'
      ? parseBatchBody(req.body)
      : req.queryUndecodable
        ? ({ ok: false, ret: 400, msg: MSG.header, trace: '' } as const)
        : req.op === 'kline'
          ? parseKlineQuery(req.query)
          : parseTickQuery(req.query);
  const trace = parsed.trace;
  if (req.entry === undefined || req.token === undefined) return envelope(401, MSG.token, trace);
  const plan = req.entry.plan;
  if (ctx.limiter !== null) {
    const admission = ctx.limiter.admit(
      req.token,
      plan,
      { kind: req.op === 'batch-kline' ? 'batch-kline' : 'market' },
      req.nowMs,
    );
    if (!admission.admitted) return envelope(429, admission.reason === 'daily' ? MSG.daily : MSG.rate, trace);
  }
  if (!parsed.ok) return envelope(parsed.ret, parsed.msg, trace);
  const { backends } = ctx;
  const b = ctx.behaviours?.active === true ? ctx.behaviours : undefined;

  if (req.op === 'kline') {
    const item = parsed.data as KlineItem;
    const r = resolve(item.code, req.family, plan, backends);
    if (!r.ok) return envelope(r.ret, unresolvedMsg(r.ret), trace);
    if (!klineItemValid(item, r.product, false)) return envelope(400, MSG.data, trace);
    const count = Math.min(item.query_kline_num, MAX_KLINES);
    if (b !== undefined) {
      // The count as asked: 501 is another request than 500 for the behaviours' decisions.
      const bars = b.klinePage(backends.market, r.product, item.kline_type, item.kline_timestamp_end, item.query_kline_num, req.nowMs);
      const body = { ret: 200, msg: MSG.ok, trace, data: { code: r.product.code, kline_type: item.kline_type, kline_list: bars } };
      return { status: 200, body: b.decorateMarket('kline', body, req.nowMs, trace) };
    }
    const head =
      `{"ret":200,"msg":"ok","trace":${JSON.stringify(trace)},"data":{"code":${JSON.stringify(r.product.code)},` +
      `"kline_type":${item.kline_type},"kline_list":`;
    const market = backends.market;
    const pieces = market.klineListJson?.(r.product, item.kline_type, item.kline_timestamp_end, count, req.nowMs);
    if (pieces !== undefined) {
      // The body exists only as bytes: `body` is parsed back lazily, for a caller that wants the object.
      const chunks = [head, ...pieces, '}}'];
      return {
        status: 200,
        get body() {
          return JSON.parse(Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c))).toString('utf8'));
        },
        chunks,
      };
    }
    const list = market.klines(r.product, item.kline_type, item.kline_timestamp_end, count, req.nowMs);
    const data = { code: r.product.code, kline_type: item.kline_type, kline_list: list };
    const chunks = klineListChunks(head, list, '}}');
    return { status: 200, body: { ret: 200, msg: MSG.ok, trace, data }, chunks };
  }

  if (req.op === 'batch-kline') {
    const items = (parsed.data as { data_list: KlineItem[] }).data_list;
    if (items.length > plan.batchKlineItemCap) return envelope(605, MSG.tooMany, trace);
    const products: Product[] = [];
    let batchUnauthorized = false;
    for (const item of items) {
      const r = resolve(item.code, req.family, plan, backends);
      if (!r.ok) {
        if (r.ret === 600) return envelope(600, MSG.code, trace);
        batchUnauthorized = true;
      } else products.push(r.product);
    }
    if (batchUnauthorized) return envelope(604, MSG.unauthorized, trace);
    for (let i = 0; i < items.length; i++) {
      if (!klineItemValid(items[i]!, products[i]!, true)) return envelope(400, MSG.data, trace);
    }
    if (b !== undefined) {
      const list = b.batchItems(
        backends.market,
        items.map((item, i) => ({
          product: products[i]!,
          klineType: item.kline_type,
          endSec: item.kline_timestamp_end,
          count: item.query_kline_num,
        })),
        req.nowMs,
        trace,
      );
      return { status: 200, body: b.decorateMarket('batch-kline', { ret: 200, msg: MSG.ok, trace, data: { kline_list: list } }, req.nowMs, trace) };
    }
    const klineList = items.map((item, i) => ({
      code: products[i]!.code,
      kline_type: item.kline_type,
      kline_data: backends.market.klines(
        products[i]!,
        item.kline_type,
        item.kline_timestamp_end,
        item.query_kline_num,
        req.nowMs,
      ),
    }));
    return envelope(200, MSG.ok, trace, { kline_list: klineList });
  }

  // depth-tick / trade-tick: Free silently serves only the first N codes (W9); any bad code → 600 (W8).
  let symbols = (parsed.data as { symbol_list: { code?: unknown }[] }).symbol_list;
  if (plan.tickCodeCap !== null) symbols = symbols.slice(0, plan.tickCodeCap);
  const products: Product[] = [];
  let unauthorized = false;
  for (const s of symbols) {
    const r = resolve(s.code, req.family, plan, backends);
    if (!r.ok) {
      if (r.ret === 600) return envelope(600, MSG.code, trace);
      unauthorized = true;
    } else products.push(r.product);
  }
  if (unauthorized) return envelope(604, MSG.unauthorized, trace);
  const served = b === undefined ? products : b.keptProducts(products, req.nowMs, trace);
  const tickList =
    req.op === 'depth-tick'
      ? served.map((p) => backends.market.depth(p, req.nowMs))
      : served.map((p) => backends.market.trade(p, req.nowMs));
  if (b !== undefined) {
    return { status: 200, body: b.decorateMarket(req.op, { ret: 200, msg: MSG.ok, trace, data: { tick_list: tickList } }, req.nowMs, trace) };
  }
  return envelope(200, MSG.ok, trace, { tick_list: tickList });
}
