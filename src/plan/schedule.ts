/**
 * The fastest schedule the plan's limits allow for a set of requests: greedy admission under the
 * combined sliding windows (every request counts), per-key minimum gaps (batch-kline, one
 * suspension request per minute per exchange) and polling start times. Latency is not modelled,
 * so the result is the time the limits alone impose.
 */
import type { PlanLimits } from '../api/index.js';
import type { RequestGroup } from '../core/plan-types.js';

interface Pending {
  readonly notBefore: number;
  readonly gapKey: string | undefined;
  readonly gapMs: number;
}

/** Clock time (ms from the start) at which the last of `count` requests (at most) is admitted. */
export function scheduleRequests(groups: readonly RequestGroup[], limits: PlanLimits, count = Number.POSITIVE_INFINITY): number {
  const pending: Pending[] = [];
  for (const g of groups) {
    for (let i = 0; i < g.requests; i++) {
      pending.push({
        notBefore: g.notBeforeMs?.[i] ?? 0,
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
  const admitted: number[] = [];
  const lastByKey = new Map<string, number>();
  const windows = [limits.perSecond, limits.perMinute];
  let last = 0;
  for (let i = 0; i < n; i++) {
    // The request that could go first: its start time and its chain's gap decide.
    let bestKey = '';
    let best = Number.POSITIVE_INFINITY;
    for (const [key, q] of queues) {
      const h = heads.get(key)!;
      const p = q[h];
      if (p === undefined) continue;
      const prev = lastByKey.get(key);
      const ready = Math.max(p.notBefore, p.gapKey !== undefined && prev !== undefined ? prev + p.gapMs : 0);
      if (ready < best) {
        best = ready;
        bestKey = key;
      }
    }
    heads.set(bestKey, heads.get(bestKey)! + 1);
    let at = Math.max(best, last);
    const k = admitted.length;
    for (const w of windows) if (k >= w.limit) at = Math.max(at, admitted[k - w.limit]! + w.windowMs);
    admitted.push(at);
    lastByKey.set(bestKey, at);
    last = at;
  }
  return last;
}
