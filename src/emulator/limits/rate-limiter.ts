import { type PlanLimits } from '../plans.js';
import type { ArrivalLog } from './arrival-log.js';
import { DailyCounter } from './daily-counter.js';
import { SlidingWindow } from './sliding-window.js';

/** What a request is, for the limits that apply to it. */
export type LimitedOperation =
  | { kind: 'market' }
  | { kind: 'batch-kline' }
  | { kind: 'suspension'; exchange: 'sse' | 'nyse' | 'nasdaq' };

export type Admission = { admitted: true } | { admitted: false; reason: 'daily' | 'rate' };

/** null: the plan lifts this limit (a custom plan's "unlimited", or a gap of 0), so nothing is kept. */
type Window = SlidingWindow | null;

interface TokenState {
  readonly plan: PlanLimits;
  readonly daily: DailyCounter;
  readonly perSecond: Window;
  readonly perMinute: Window;
  readonly batchGap: Window;
  readonly suspension: Record<'sse' | 'nyse' | 'nasdaq', Window>;
  /** The windows every request meets (the lifted ones left out). */
  readonly combined: readonly SlidingWindow[];
}

function windowOf(count: number, windowMs: number): Window {
  return Number.isFinite(count) && windowMs > 0 ? new SlidingWindow(count, windowMs) : null;
}

export interface WindowUsage {
  used: number;
  limit: number;
  windowMs: number;
}

/** Read-only view of one token's counters at an instant. */
export interface TokenUsage {
  plan: string;
  day: { date: string; used: number; limit: number; resetAt: string };
  perSecond: WindowUsage;
  perMinute: WindowUsage;
  batchKline: WindowUsage;
  suspension: Record<'sse' | 'nyse' | 'nasdaq', WindowUsage>;
}

/**
 * Per-token limits of limits-rules.md: daily cap first, then every sliding window that applies; a
 * request is recorded in all of them only if all admit it, so rejected requests count toward nothing.
 * The per-operation limits of /kline, /depth-tick and /trade-tick equal the combined per-second one,
 * so they can never bind on their own and are not kept separately.
 */
export class RateLimiter {
  private readonly tokens = new Map<string, TokenState>();

  /** `arrivals`: where admitted instants and refusals are also written (a test clock's, see arrival-log.ts). */
  constructor(
    readonly quotaTimeZone: string,
    private readonly arrivals?: ArrivalLog,
  ) {}

  private state(token: string, plan: PlanLimits): TokenState {
    let s = this.tokens.get(token);
    if (s === undefined || s.plan !== plan) {
      const perSecond = windowOf(plan.perSecond.count, plan.perSecond.windowMs);
      const perMinute = windowOf(plan.perMinute.count, plan.perMinute.windowMs);
      s = {
        plan,
        daily: new DailyCounter(plan.perDay, this.quotaTimeZone),
        perSecond,
        perMinute,
        batchGap: windowOf(1, plan.batchKlineGapMs),
        suspension: {
          sse: windowOf(1, plan.suspensionGapMs),
          nyse: windowOf(1, plan.suspensionGapMs),
          nasdaq: windowOf(1, plan.suspensionGapMs),
        },
        combined: [perSecond, perMinute].filter((w): w is SlidingWindow => w !== null),
      };
      this.tokens.set(token, s);
    }
    return s;
  }

  admit(token: string, plan: PlanLimits, op: LimitedOperation, t: number): Admission {
    const s = this.state(token, plan);
    if (!s.daily.allows(t)) return this.refuse(token, 'daily');
    const windows = [...s.combined];
    const own = op.kind === 'batch-kline' ? s.batchGap : op.kind === 'suspension' ? s.suspension[op.exchange] : null;
    if (own !== null) windows.push(own);
    for (const w of windows) if (!w.allows(t)) return this.refuse(token, 'rate');
    s.daily.record(t);
    for (const w of windows) w.record(t);
    this.arrivals?.admitted(token, t);
    return { admitted: true };
  }

  private refuse(token: string, reason: 'daily' | 'rate'): Admission {
    this.arrivals?.refused(token, reason);
    return { admitted: false, reason };
  }

  /** Counters of a token as seen at `t`; undefined if it never made an admitted or rejected request. */
  usage(token: string, t: number): TokenUsage | undefined {
    const s = this.tokens.get(token);
    if (s === undefined) return undefined;
    // A lifted window shows as used 0 of +Infinity (null in JSON).
    const view = (w: Window, count: number, windowMs: number): WindowUsage =>
      w === null ? { used: 0, limit: Number.isFinite(count) ? count : Number.POSITIVE_INFINITY, windowMs } : { used: w.used(t), limit: w.limit, windowMs: w.windowMs };
    const p = s.plan;
    const gap = (w: Window) => view(w, 1, p.suspensionGapMs);
    return {
      plan: p.name,
      day: s.daily.snapshot(t),
      perSecond: view(s.perSecond, p.perSecond.count, p.perSecond.windowMs),
      perMinute: view(s.perMinute, p.perMinute.count, p.perMinute.windowMs),
      batchKline: view(s.batchGap, 1, p.batchKlineGapMs),
      suspension: { sse: gap(s.suspension.sse), nyse: gap(s.suspension.nyse), nasdaq: gap(s.suspension.nasdaq) },
    };
  }
}
