/**
 * `worker --stalled-timeout`: BullMQ's lockDuration (and stalledInterval). The worker renews its
 * slices' locks about every half of it, on its own event loop, so a pause of the loop longer than
 * half the timeout (a commit's manifest read and compaction, a full garbage collection) lets the
 * lock lapse and another worker take the slice as stalled while it still runs. The longest pause
 * measured on a worker running slices is 0.23 s (two cores at load 12; 0.06-0.08 s idle): a floor
 * of 1 s keeps the half, 0.5 s, at twice that.
 */
import { timerSecondsMs } from '../seconds-option.js';
import { UsageError } from '../usage-error.js';

export const MIN_STALLED_SECONDS = 1;

/** Milliseconds of a `--stalled-timeout` in seconds; below the floor a usage error (exit 2). */
export function stalledTimeoutMs(seconds: number): number {
  const shown = `--stalled-timeout ${seconds}`;
  const ms = timerSecondsMs(seconds, shown);
  if (seconds < MIN_STALLED_SECONDS) {
    throw new UsageError(
      `${shown}: must be at least ${MIN_STALLED_SECONDS} second: a worker renews its slices' locks every half of it, and a pause of its event loop during a commit longer than that would hand its own running slices to another worker as stalled`,
      `give ${MIN_STALLED_SECONDS} or more (default 30); a shorter timeout finds a lost worker sooner but risks taking slices from a busy one`,
    );
  }
  return ms;
}
