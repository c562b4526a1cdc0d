/**
 * The rounds a polling source plans for: the planner's model when it gives one, else the configured
 * offsets. A run counts its progress plan by the same model under the limits of the token its one
 * stream runs on (streamLimitsOf, pollRoundsUnder), so the line's "planned" agrees with `quotelake
 * plan` and with the rounds the run takes, on a token pool too.
 */
import type { PlanContext, PlannedRounds, RequestGroup } from '../../core/plan-types.js';
import { roundOffsets, type RoundsConfig } from '../../core/round-starts.js';

export function plannedRounds(config: RoundsConfig, ctx: PlanContext, round: readonly RequestGroup[]): PlannedRounds {
  return ctx.pollRounds?.(config, round) ?? { startsMs: roundOffsets(config) };
}

/** One round's requests repeated at each round start (ms from the first): the plan's request groups. */
export function roundGroups(round: readonly RequestGroup[], startsMs: readonly number[]): RequestGroup[] {
  return round.map((g) => ({
    ...g,
    requests: g.requests * startsMs.length,
    notBeforeMs: startsMs.flatMap((o) => Array.from({ length: g.requests }, () => o)),
  }));
}
