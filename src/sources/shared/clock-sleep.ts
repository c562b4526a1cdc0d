/**
 * Waiting between polling rounds on the run's clock: a virtual clock (Clock.set: tests, dry runs) is moved
 * forward instead of waiting, any other clock waits on real timers. Aborts end the wait at once.
 */
import { manualSleep, systemSleep, type Sleep } from '../../api/index.js';
import { isVirtualClock, type Clock } from '../../core/clock.js';

export function clockSleep(clock: Clock): Sleep {
  return isVirtualClock(clock) ? manualSleep(clock) : systemSleep;
}

/** Sleeps until `atMs` of `clock` (no wait when it has passed). */
export async function sleepUntil(clock: Clock, atMs: number, signal: AbortSignal): Promise<void> {
  const wait = atMs - clock.now();
  if (wait > 0) await clockSleep(clock)(wait, signal);
}
