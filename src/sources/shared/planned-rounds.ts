/** The rounds a polling source plans for: the planner's model when it gives one, else the configured offsets. */
import type { PlanContext, PlannedRounds, RequestGroup } from '../../core/plan-types.js';
import { roundOffsets, type RoundsConfig } from '../../core/round-starts.js';

export function plannedRounds(config: RoundsConfig, ctx: PlanContext, round: readonly RequestGroup[]): PlannedRounds {
  return ctx.pollRounds?.(config, round) ?? { startsMs: roundOffsets(config) };
}
