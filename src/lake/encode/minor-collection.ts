/**
 * A young-generation collection on demand, for the encode worker, for the partitioned sink taking
 * K-line lanes (partitioned-sink.ts, tookPage, says why) and for the coverage audit's reads
 * (coverage/kline-partitions.ts).
 *
 * Why: the column buffers a file's job moves into the worker were allocated by the run's main
 * thread, so they live in its malloc heap, and the worker frees them only when its V8 heap
 * collects their wrappers. The worker allocates almost no JavaScript objects, so collections came
 * rarely and tens of MB of finished files' buffers waited in the main thread's heap, which glibc
 * keeps at its high-water mark: a 5M-row backfill peaked 10-15 MB higher than with a minor
 * collection after each file (which costs well under a millisecond: the worker's young
 * generation holds a few objects).
 *
 * `--expose-gc` is a V8 flag, so setting it touches the whole process; it only gives contexts
 * created after it a `gc` function, and the ones created here (one per thread) are the only ones
 * that use it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' }) => void;

let collect: Collect | null | undefined;

/** Runs a minor collection of this thread's heap; a no-op where V8 does not allow it. */
export function minorCollection(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    } catch {
      collect = null;
    }
  }
  collect?.({ type: 'minor' });
}
