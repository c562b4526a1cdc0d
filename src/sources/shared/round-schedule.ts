/**
 * Polling rounds on the run's clock: each waits until it is due by the rule of core/round-starts.ts
 * (the planner counts rounds by the same rule). A slow answer or a held rate limit once sent the
 * rounds it had delayed back to back, several snapshots of one instant; now it pushes them on
 * instead. Rounds of `durationSeconds` still start within it.
 */
import type { Clock } from '../../core/clock.js';
import { roundStarts, type RoundsConfig } from '../../core/round-starts.js';
import { sleepUntil } from './clock-sleep.js';
import { throwIfAborted } from './throw-if-aborted.js';

/**
 * Yields as each round is due (after waiting on `clock`), from `start`. `onCut` is told, once, how
 * many of the configured rounds were pushed past `durationSeconds` and will not be taken, so the
 * run says it delivered fewer snapshots than its configuration describes.
 */
export async function* roundsDue(config: RoundsConfig, clock: Clock, start: number, signal: AbortSignal, onCut?: (cut: number, of: number) => void): AsyncGenerator<void> {
  const due = roundStarts(config, start);
  throwIfAborted(signal);
  let step = due.next();
  while (!step.done) {
    await sleepUntil(clock, step.value, signal);
    const startedAt = clock.now();
    yield;
    throwIfAborted(signal);
    step = due.next(startedAt);
  }
  if (step.value !== undefined) onCut?.(step.value.cut, step.value.of);
}
