/**
 * The polling rounds a run will take, as the planner sees them: the run's own rule for when a round
 * is due (core/round-starts.ts), each round's requests admitted under the plan's limits from when
 * it really starts, that is once the round before it is done (latency not modelled). On a small
 * plan a round of many requests outlasts `everySeconds`, and the rounds it pushes past
 * `durationSeconds` are not taken, by the run nor by the plan. In src/api so that both count by it:
 * `quotelake plan`, and a polling source's progress plan at run start.
 */
import type { PlanContext, PlannedRounds, RequestGroup } from '../core/plan-types.js';
import { roundStarts, type RoundsConfig } from '../core/round-starts.js';
import { Admissions } from './plan-admissions.js';
import type { PlanLimits } from './plans.js';

/** `round`: the requests of one round (no start times). */
export function pollRounds(config: RoundsConfig, round: readonly RequestGroup[], limits: PlanLimits): PlannedRounds {
  const admissions = new Admissions(limits);
  const due = roundStarts(config, 0);
  const startsMs: number[] = [];
  let previousDone = 0;
  let step = due.next();
  while (!step.done) {
    // A round waits for the one before it: the run asks for the next round once a round is written.
    const startedAt = Math.max(step.value, previousDone);
    startsMs.push(startedAt);
    previousDone = admissions.admit(round, Number.POSITIVE_INFINITY, startedAt);
    step = due.next(startedAt);
  }
  return { startsMs, ...(step.value !== undefined ? { cut: step.value } : {}) };
}

/** The model under one plan's limits, as a plan context carries it to a source (`PlanContext.pollRounds`). */
export function pollRoundsUnder(limits: PlanLimits): NonNullable<PlanContext['pollRounds']> {
  return (config, round) => pollRounds(config, round, limits);
}
