import type { EmulatorBackends } from '../backends.js';
import type { HaltExchange } from '../contracts.js';
import type { Reply } from '../http/send.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { TokenEntry } from '../plans-file.js';
import type { PlanLimits } from '../plans.js';

export const MAX_PAGE_SIZE = 500;

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

const positiveInt = (text: string): number | undefined => (/^[1-9]\d{0,8}$/.test(text) ? Number(text) : undefined);

/** GET /api/suspension/{exchange}: token, limits (1/min per exchange), scope, paging (S1), records. */
export function handleSuspension(
  req: SuspensionRequest,
  ctx: { backends: EmulatorBackends; limiter: RateLimiter | null },
): Reply {
  if (req.entry === undefined || req.token === undefined) return suspensionError('token invalid');
  const plan = req.entry.plan;
  if (ctx.limiter !== null) {
    const a = ctx.limiter.admit(req.token, plan, { kind: 'suspension', exchange: req.exchange }, req.nowMs);
    if (!a.admitted) return suspensionError(a.reason === 'daily' ? 'daily limit exceeded' : 'rate limit');
  }
  if (!covers(plan, req.exchange)) return suspensionError('exchange not covered by plan');
  if ((req.page === undefined) !== (req.size === undefined)) {
    return suspensionError('page and size must be given together');
  }
  let paging: { page: number; size: number } | undefined;
  if (req.page !== undefined && req.size !== undefined) {
    const page = positiveInt(req.page);
    const size = positiveInt(req.size);
    if (page === undefined) return suspensionError(`page must be an integer >= 1, got "${req.page.slice(0, 40)}"`);
    if (size === undefined || size > MAX_PAGE_SIZE) {
      return suspensionError(`size must be an integer 1..${MAX_PAGE_SIZE}, got "${req.size.slice(0, 40)}"`);
    }
    paging = { page, size };
  }
  const records = ctx.backends.halts.records(req.exchange, req.nowMs);
  const timestamp = envelopeTimestamp(req.nowMs);
  if (paging === undefined) {
    return { status: 200, body: { success: true, timestamp, totalCount: records.length, data: records } };
  }
  const totalPages = Math.ceil(records.length / paging.size);
  if (paging.page > Math.max(1, totalPages)) {
    return suspensionError(`page ${paging.page} is out of range (${totalPages} pages of ${paging.size})`);
  }
  const data = records.slice((paging.page - 1) * paging.size, paging.page * paging.size);
  return {
    status: 200,
    body: {
      success: true,
      timestamp,
      totalCount: records.length,
      data,
      totalPages,
      currentPage: paging.page,
      currentSize: data.length,
    },
  };
}
