/**
 * A polling source's round that meets the daily cap ends the source, not the run: the rounds
 * already handed over are committed with their checkpoints (snapshots and latest bars cannot be
 * fetched again later), a note says when to run again, and the CLI exits 75 as for a backfill.
 */
import type { RunContext } from '../../core/component.js';
import { QuotaExhaustedError } from '../../core/errors.js';

/** Runs one round's call; `undefined` when the daily quota stopped it (noted), any other error thrown. */
export async function roundUnlessQuotaEnds<T>(ctx: RunContext, source: string, rounds: number, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof QuotaExhaustedError)) throw error;
    const done = rounds === 1 ? '1 round' : `${rounds} rounds`;
    ctx.events.note?.(`${source}: daily request quota used up after ${done}; what they fetched is kept, run again after ${error.resetAt.toISOString()}`);
    return undefined;
  }
}
