/**
 * The fastest schedule the plan's limits allow for a set of requests: greedy admission under the
 * combined sliding windows (every request counts), per-key minimum gaps (batch-kline, one
 * suspension request per minute per exchange) and polling start times. Latency is not modelled,
 * so the result is the time the limits alone impose (the model: api/plan-admissions.ts).
 */
import { Admissions, type PlanLimits } from '../api/index.js';
import type { RequestGroup } from '../core/plan-types.js';

/** Clock time (ms from the start) at which the last of `count` requests (at most) is admitted. */
export function scheduleRequests(groups: readonly RequestGroup[], limits: PlanLimits, count = Number.POSITIVE_INFINITY): number {
  const n = Math.min(count, groups.reduce((a, g) => a + g.requests, 0));
  return n === 0 ? 0 : new Admissions(limits).admit(groups, n);
}
