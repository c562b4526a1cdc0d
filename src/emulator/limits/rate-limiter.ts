import { type PlanLimits } from '../plans.js';
import { DailyCounter } from './daily-counter.js';
import { SlidingWindow } from './sliding-window.js';

/** What a request is, for the limits that apply to it. */
export type LimitedOperation =
  | { kind: 'market' }
  | { kind: 'batch-kline' }
  | { kind: 'suspension'; exchange: 'sse' | 'nyse' | 'nasdaq' };

export type Admission = { admitted: true } | { admitted: false; reason: 'daily' | 'rate' };

interface TokenState {
  readonly plan: PlanLimits;
  readonly daily: DailyCounter;
  readonly perSecond: SlidingWindow;
  readonly perMinute: SlidingWindow;
  readonly batchGap: SlidingWindow;
  readonly suspension: Record<'sse' | 'nyse' | 'nasdaq', SlidingWindow>;
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

  constructor(readonly quotaTimeZone: string) {}

  private state(token: string, plan: PlanLimits): TokenState {
    let s = this.tokens.get(token);
    if (s === undefined || s.plan !== plan) {
      s = {
        plan,
        daily: new DailyCounter(plan.perDay, this.quotaTimeZone),
        perSecond: new SlidingWindow(plan.perSecond.count, plan.perSecond.windowMs),
        perMinute: new SlidingWindow(plan.perMinute.count, plan.perMinute.windowMs),
        batchGap: new SlidingWindow(1, plan.batchKlineGapMs),
        suspension: {
          sse: new SlidingWindow(1, plan.suspensionGapMs),
          nyse: new SlidingWindow(1, plan.suspensionGapMs),
          nasdaq: new SlidingWindow(1, plan.suspensionGapMs),
        },
      };
      this.tokens.set(token, s);
    }
    return s;
  }

  admit(token: string, plan: PlanLimits, op: LimitedOperation, t: number): Admission {
    const s = this.state(token, plan);
    if (!s.daily.allows(t)) return { admitted: false, reason: 'daily' };
    const windows = [s.perSecond, s.perMinute];
    if (op.kind === 'batch-kline') windows.push(s.batchGap);
    if (op.kind === 'suspension') windows.push(s.suspension[op.exchange]);
    for (const w of windows) if (!w.allows(t)) return { admitted: false, reason: 'rate' };
    s.daily.record(t);
    for (const w of windows) w.record(t);
    return { admitted: true };
  }

  /** Counters of a token as seen at `t`; undefined if it never made an admitted or rejected request. */
  usage(token: string, t: number): TokenUsage | undefined {
    const s = this.tokens.get(token);
    if (s === undefined) return undefined;
    const view = (w: SlidingWindow): WindowUsage => ({ used: w.used(t), limit: w.limit, windowMs: w.windowMs });
    return {
      plan: s.plan.name,
      day: s.daily.snapshot(t),
      perSecond: view(s.perSecond),
      perMinute: view(s.perMinute),
      batchKline: view(s.batchGap),
      suspension: { sse: view(s.suspension.sse), nyse: view(s.suspension.nyse), nasdaq: view(s.suspension.nasdaq) },
    };
  }
}
