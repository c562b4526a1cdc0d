/**
 * A pool's codes grouped by the tokens that may serve them: a pool gives a request only to a token
 * whose plan covers its codes (api/token-pool.ts), so on a pool of an all-us and a professional
 * token the crypto series all run on the professional one. The planner times each group on its
 * own tokens' rates; the pool's sum would count a token that never serves them.
 */
import { planCoversCodes } from '../api/plan-market.js';
import type { PlanLimits } from '../api/index.js';

export interface CoveringGroup {
  readonly codes: readonly string[];
  /** The plans of the tokens that cover every code of the group (every token's, when none does: the run stops at the 604). */
  readonly plans: readonly PlanLimits[];
  /** Those tokens' places in the pool. */
  readonly tokens: readonly number[];
}

/** Each code's covering tokens, codes with the same tokens together, in the order first seen. */
export function coveringGroups(codes: readonly string[], plans: readonly PlanLimits[]): CoveringGroup[] {
  const groups = new Map<string, { codes: string[]; plans: PlanLimits[]; tokens: number[] }>();
  for (const code of codes) {
    const covering = plans.map((p, i) => (planCoversCodes(p, [code]) ? i : -1)).filter((i) => i >= 0);
    const tokens = covering.length > 0 ? covering : plans.map((_, i) => i);
    const key = tokens.join(',');
    const group = groups.get(key) ?? { codes: [], plans: tokens.map((i) => plans[i]!), tokens };
    group.codes.push(code);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The plans of the tokens that cover every one of `codes` (a poller's stream is kept on one of them); none when no token does. */
export function plansCoveringAll(codes: readonly string[], plans: readonly PlanLimits[]): PlanLimits[] {
  return plans.filter((p) => planCoversCodes(p, codes));
}
