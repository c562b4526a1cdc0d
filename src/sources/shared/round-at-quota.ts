/**
 * A polling source's round that meets the daily cap ends the source, not the run: the rounds
 * already handed over are committed with their checkpoints (snapshots and latest bars cannot be
 * fetched again later), a note says when to run again, and the CLI exits 75 as for a backfill.
 * A round the cap stopped part-way (one family's request answered, the next refused) is handed
 * over with what it received: those answers were charged.
 */
import type { RunContext } from '../../core/component.js';
import { QuotaExhaustedError } from '../../core/errors.js';

/** A round's answer; `last` when the cap stopped it part-way (what it received, then no more rounds). */
export interface RoundAnswer<T> {
  readonly value: T;
  readonly last: boolean;
}

/**
 * Runs one round's call; `undefined` when the daily quota stopped it before any answer (noted),
 * any other error thrown. `rounds`: the rounds handed over before this one.
 */
export async function roundUnlessQuotaEnds<T>(ctx: RunContext, source: string, rounds: number, call: () => Promise<T>): Promise<RoundAnswer<T> | undefined> {
  try {
    return { value: await call(), last: false };
  } catch (error) {
    if (!(error instanceof QuotaExhaustedError)) throw error;
    const partial = error.partial as T | undefined;
    const whole = rounds === 1 ? '1 round' : `${rounds} rounds`;
    const done = partial === undefined ? whole : rounds === 0 ? 'part of the first round' : `${whole} and part of the next`;
    ctx.events.stoppedAtQuota?.();
    // Used up before the first round: nothing fetched, so nothing "kept" to speak of.
    const said = rounds === 0 && partial === undefined ? 'before its first round: nothing fetched' : `after ${done}; what they fetched is kept`;
    ctx.events.note?.(`${source}: daily request quota used up ${said}, run again after ${error.resetAt.toISOString()}`);
    return partial === undefined ? undefined : { value: partial, last: true };
  }
}
