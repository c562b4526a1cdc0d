/**
 * When polling rounds start: each at its offset from the first (roundOffsets), except that a round
 * never starts sooner than `everySeconds` after the one before it actually started. A slow answer
 * or a held rate limit once sent the rounds it had delayed back to back, several snapshots of one
 * instant; now it pushes them on instead. Rounds of `durationSeconds` still start within it.
 */
import type { Clock } from '../../core/clock.js';
import { roundOffsets, type RoundsConfig } from './config-parts.js';
import { sleepUntil } from './clock-sleep.js';
import { throwIfAborted } from './throw-if-aborted.js';

/**
 * Yields as each round is due (after waiting on `clock`), from `start`. `onCut` is told, once, how
 * many of the configured rounds were pushed past `durationSeconds` and will not be taken, so the
 * run says it delivered fewer snapshots than its configuration describes.
 */
export async function* roundsDue(config: RoundsConfig, clock: Clock, start: number, signal: AbortSignal, onCut?: (cut: number, of: number) => void): AsyncGenerator<void> {
  const every = (config.everySeconds ?? 0) * 1000;
  const endBy = config.durationSeconds !== undefined ? start + config.durationSeconds * 1000 : Number.POSITIVE_INFINITY;
  // A round that starts a little late (timers, a busy loop) counts as started on time, so rounds on
  // time never drift; one later than a tenth of the period counts from when it really started.
  const slack = every / 10;
  let previous = Number.NEGATIVE_INFINITY;
  const offsets = roundOffsets(config);
  for (const [i, offset] of offsets.entries()) {
    throwIfAborted(signal);
    const at = Math.max(start + offset, previous + every);
    if (at >= endBy) {
      onCut?.(offsets.length - i, offsets.length);
      return;
    }
    await sleepUntil(clock, at, signal);
    const now = clock.now();
    previous = now - at <= slack ? at : now;
    yield;
  }
}
