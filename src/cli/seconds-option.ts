/**
 * A duration option in seconds that becomes a timer. Node's timers hold at most 2^31-1 ms (about
 * 24.8 days) and fire after 1 ms beyond that, so a larger value would do the opposite of what it
 * asks (a stop grace of a year would end a run at once; a stalled interval would poll Redis every
 * millisecond): it is refused, as is anything but a positive number.
 */
import { UsageError } from './usage-error.js';

export const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** Milliseconds of `seconds`; `shown` names the option (and its value) in the message. */
export function timerSecondsMs(seconds: number, shown: string, hint?: string): number {
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`${shown}: must be a positive number of seconds`, hint);
  if (seconds > MAX_TIMER_SECONDS) throw new UsageError(`${shown}: must be at most ${MAX_TIMER_SECONDS} seconds (about 24 days), the longest timer Node keeps`, hint);
  return Math.round(seconds * 1000);
}
