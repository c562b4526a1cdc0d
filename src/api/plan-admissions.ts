/**
 * The planner's model of admission under one plan's limits: greedy admission under the combined
 * sliding windows (every request counts), per-key minimum gaps (batch-kline, one suspension
 * request per minute per exchange) and polling start times. Latency is not modelled. Here, not in
 * src/plan, because a polling source counts its rounds by it at run start too (poll-rounds.ts).
 */
import type { RequestGroup } from '../core/plan-types.js';
import type { PlanLimits } from './plans.js';

interface Pending {
  readonly notBefore: number;
  readonly gapKey: string | undefined;
  readonly gapMs: number;
}

/**
 * Admissions under one plan's limits, kept between calls: polling rounds are admitted one after
 * another, each on the windows and gaps the rounds before it left (poll-rounds.ts).
 */
export class Admissions {
  private readonly admitted: number[] = [];
  private readonly lastByKey = new Map<string, number>();
  private last = 0;

  constructor(private readonly limits: PlanLimits) {}

  /**
   * Admits `count` (at most) of the groups' requests, none before `from` (ms from the start);
   * returns when the last of them is admitted (`from` when there are none).
   */
  admit(groups: readonly RequestGroup[], count = Number.POSITIVE_INFINITY, from = 0): number {
    const pending: Pending[] = [];
    for (const g of groups) {
      for (let i = 0; i < g.requests; i++) {
        pending.push({
          notBefore: Math.max(from, g.notBeforeMs?.[i] ?? 0),
          gapKey: g.minGapMs !== undefined ? (g.gapKey ?? g.endpoint) : undefined,
          gapMs: g.minGapMs ?? 0,
        });
      }
    }
    // One queue per gap chain (requests without a gap share one queue), each in start order.
    const queues = new Map<string, Pending[]>();
    for (const p of pending) {
      const key = p.gapKey ?? '\u0000free';
      const q = queues.get(key) ?? [];
      q.push(p);
      queues.set(key, q);
    }
    for (const q of queues.values()) q.sort((a, b) => a.notBefore - b.notBefore);
    const heads = new Map<string, number>([...queues.keys()].map((k) => [k, 0]));
    const n = Math.min(count, pending.length);
    const windows = [this.limits.perSecond, this.limits.perMinute];
    let end = from;
    for (let i = 0; i < n; i++) {
      // The request that could go first: its start time and its chain's gap decide.
      let bestKey = '';
      let best = Number.POSITIVE_INFINITY;
      for (const [key, q] of queues) {
        const h = heads.get(key)!;
        const p = q[h];
        if (p === undefined) continue;
        const prev = this.lastByKey.get(key);
        const ready = Math.max(p.notBefore, p.gapKey !== undefined && prev !== undefined ? prev + p.gapMs : 0);
        if (ready < best) {
          best = ready;
          bestKey = key;
        }
      }
      heads.set(bestKey, heads.get(bestKey)! + 1);
      let at = Math.max(best, this.last);
      const k = this.admitted.length;
      for (const w of windows) if (k >= w.limit) at = Math.max(at, this.admitted[k - w.limit]! + w.windowMs);
      this.admitted.push(at);
      this.lastByKey.set(bestKey, at);
      this.last = at;
      end = at;
    }
    return end;
  }
}
