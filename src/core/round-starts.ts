/**
 * When polling rounds start, the one copy of the rule: the run waits on its clock for each round
 * (sources/shared/round-schedule.ts) and the planner steps the same rule through its model of the
 * plan's limits (api/poll-rounds.ts), so the rounds a plan counts are the rounds a run takes.
 *
 * Each round is due at its offset from the first (roundOffsets), except that it never starts sooner
 * than `everySeconds` after the one before it really started; a round due at or past
 * `durationSeconds` is not taken, nor any after it.
 */

export interface RoundsConfig {
  everySeconds?: number | undefined;
  count?: number | undefined;
  durationSeconds?: number | undefined;
}

/** Of the configured rounds, how many were pushed past `durationSeconds` and not taken. */
export interface RoundsCut {
  readonly cut: number;
  readonly of: number;
}

/** Start offsets (ms from the first round) of every round the config asks for. */
export function roundOffsets(config: RoundsConfig): number[] {
  if (config.everySeconds === undefined) return [0];
  const every = config.everySeconds * 1000;
  const byCount = config.count ?? Number.POSITIVE_INFINITY;
  const byDuration = config.durationSeconds !== undefined ? Math.floor((config.durationSeconds * 1000 - 1) / every) + 1 : Number.POSITIVE_INFINITY;
  const n = Math.min(byCount, byDuration);
  return Array.from({ length: Number.isFinite(n) ? n : 1 }, (_, i) => i * every);
}

/**
 * Yields the instant each round is due, from `start`; `next(startedAt)` tells it when that round
 * really started (at or after it was due: a held limit, a slow answer of the round before). Returns
 * the rounds cut, or undefined when every configured round was due in time.
 */
export function* roundStarts(config: RoundsConfig, start: number): Generator<number, RoundsCut | undefined, number> {
  const every = (config.everySeconds ?? 0) * 1000;
  const endBy = config.durationSeconds !== undefined ? start + config.durationSeconds * 1000 : Number.POSITIVE_INFINITY;
  // A round that starts a little late (timers, a busy loop) counts as started on time, so rounds on
  // time never drift; one later than a tenth of the period counts from when it really started.
  const slack = every / 10;
  let previous = Number.NEGATIVE_INFINITY;
  const offsets = roundOffsets(config);
  for (const [i, offset] of offsets.entries()) {
    const at = Math.max(start + offset, previous + every);
    if (at >= endBy) return { cut: offsets.length - i, of: offsets.length };
    const startedAt = yield at;
    previous = startedAt - at <= slack ? at : startedAt;
  }
  return undefined;
}
