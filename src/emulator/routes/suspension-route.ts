import type { EmulatorBackends } from '../backends.js';
import type { Behaviours } from '../behaviours/behaviours.js';
import { pageHalts, parseHaltPaging } from '../halts/index.js';
import type { HaltExchange } from '../contracts.js';
import type { Reply } from '../http/send.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { TokenEntry } from '../plans-file.js';
import type { PlanLimits } from '../plans.js';

export interface SuspensionRequest {
  exchange: HaltExchange;
  token: string | undefined;
  entry: TokenEntry | undefined;
  /** Raw `page` and `size` parameters; undefined when absent. */
  page: string | undefined;
  size: string | undefined;
  nowMs: number;
}

/** S5: every error is HTTP 500 `{success:false,error}`. */
export const suspensionError = (error: string): Reply => ({ status: 500, body: { success: false, error } });

/** The envelope `timestamp`: the emulator clock in UTC, `yyyy-MM-dd'T'HH:mm:ss`. */
export function envelopeTimestamp(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 19);
}

function covers(plan: PlanLimits, exchange: HaltExchange): boolean {
  if (plan.market === null) return true;
  if (plan.market === 'CN') return exchange === 'sse';
  if (plan.market === 'US') return exchange === 'nyse' || exchange === 'nasdaq';
  return false;
}

/** GET /api/suspension/{exchange}: token, limits (1/min per exchange), scope, paging (S1), records. */
export function handleSuspension(
  req: SuspensionRequest,
  ctx: { backends: EmulatorBackends; limiter: RateLimiter | null; behaviours?: Behaviours | undefined },
): Reply {
  if (req.entry === undefined || req.token === undefined) return suspensionError('token invalid');
  const plan = req.entry.plan;
  if (ctx.limiter !== null) {
    const a = ctx.limiter.admit(req.token, plan, { kind: 'suspension', exchange: req.exchange }, req.nowMs);
    if (!a.admitted) return suspensionError(a.reason === 'daily' ? 'daily limit exceeded' : 'rate limit');
  }
  if (!covers(plan, req.exchange)) return suspensionError('exchange not covered by plan');
  // S1 validation is the halt archive's (one rule for the emulator); a page past the end is empty.
  const paging = parseHaltPaging(req.page, req.size);
  if (!paging.ok) return suspensionError(paging.error);
  const records = ctx.backends.halts.records(req.exchange, req.nowMs);
  const timestamp = envelopeTimestamp(req.nowMs);
  const b = ctx.behaviours?.active === true ? ctx.behaviours : undefined;
  if (paging.paging === null) {
    if (b === undefined) return { status: 200, body: { success: true, timestamp, totalCount: records.length, data: records } };
    const data = b.haltData(req.exchange, records, records, null, req.nowMs);
    const body = { success: true, timestamp, totalCount: records.length, data };
    return { status: 200, body: b.decorateHalt(req.exchange, body, null, req.nowMs) };
  }
  const paged = pageHalts(records, paging.paging.page, paging.paging.size);
  if (!paged.ok) return suspensionError(paged.error);
  const { data, totalCount, totalPages, currentPage, currentSize } = paged.page;
  if (b === undefined) {
    return { status: 200, body: { success: true, timestamp, totalCount, data, totalPages, currentPage, currentSize } };
  }
  // R6: a repeated record is really on the page, so currentSize counts it; totalCount stays distinct.
  const shown = b.haltData(req.exchange, records, data, paging.paging, req.nowMs);
  const body = { success: true, timestamp, totalCount, data: shown, totalPages, currentPage, currentSize: shown.length };
  return { status: 200, body: b.decorateHalt(req.exchange, body, paging.paging, req.nowMs) };
}
