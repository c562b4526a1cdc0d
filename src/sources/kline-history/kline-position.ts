/**
 * The checkpoint of one K-line series (`kline/<code>/<interval>`), all times bar open times in Unix
 * seconds:
 * - `watermark`: the newest FINAL bar held; every bar from `low` up to it is held, so a later run
 *   asks only for bars after it (the forming bar after it is fetched again and upserted);
 * - `low`: the oldest bar held;
 * - `walk`: a backward walk in progress: the next `kline_timestamp_end` to ask for, the floor it
 *   stops at, and the newest final bar it has delivered (the watermark once it completes). A killed
 *   backfill resumes exactly there: no gap, no duplicate.
 * - `begins`: the oldest bar the service has for the series, once a walk asked for older bars and
 *   got none (R1): the history begins there, later than `since`, and is not walked again.
 * - `overlapping`: true once a walk of the series found the service answering an end with the bar
 *   above it (R2, predicted-chain.ts): kept, so a resumed or later walk predicts its pages ahead
 *   right from its first page instead of paying them again to learn it; dropped by a run whose
 *   answers could have shown it and none did. Absent: not seen (or no longer).
 */
import type { Checkpoint } from '../../core/component.js';

export interface WalkState {
  readonly next: number;
  readonly floor: number;
  readonly top: number | null;
}

export interface KlinePosition {
  readonly watermark: number | null;
  readonly low: number | null;
  readonly walk?: WalkState;
  readonly begins?: number;
  readonly overlapping?: true;
}

const EMPTY: KlinePosition = { watermark: null, low: null };

function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

/** Reads a saved position; anything unreadable counts as "nothing held yet". */
export function readPosition(checkpoint: Checkpoint | undefined): KlinePosition {
  if (!checkpoint) return EMPTY;
  const p = checkpoint.position;
  const walk = p.walk as Record<string, unknown> | undefined;
  const next = int(walk?.next);
  const floor = int(walk?.floor);
  const begins = int(p.begins);
  return {
    watermark: int(p.watermark),
    low: int(p.low),
    ...(walk && next !== null && floor !== null ? { walk: { next, floor, top: int(walk.top) } } : {}),
    ...(begins !== null ? { begins } : {}),
    ...(p.overlapping === true ? { overlapping: true as const } : {}),
  };
}

export function toCheckpoint(stream: string, position: KlinePosition): Checkpoint {
  return {
    stream,
    position: {
      watermark: position.watermark,
      low: position.low,
      ...(position.walk ? { walk: { ...position.walk } } : {}),
      ...(position.begins !== undefined ? { begins: position.begins } : {}),
      ...(position.overlapping ? { overlapping: true } : {}),
    },
  };
}

export function maxOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

export function minOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/**
 * Where a run's coverage starts (bar open, ms), from the positions of a series before and after
 * it: at the newest final bar held before it (the watermark, else the top of a walk a killed run
 * left), so a hole where this run's bars join the last run's is reported, and lower if the run
 * added history below the low it started from. Undefined when the series holds nothing. The run
 * summary covers this and up, not the whole history: a cost that follows what the run did.
 */
export function runStartMs(before: KlinePosition, after: KlinePosition): number | undefined {
  if (after.low === null && after.watermark === null) return undefined;
  let from = before.watermark ?? before.walk?.top ?? null;
  if (after.low !== null && (before.low === null || after.low < before.low)) from = minOf(from, after.low);
  // Nothing was held above and nothing moved below: what is held, from the lowest bar.
  from ??= after.low ?? before.low;
  return from === null ? undefined : from * 1000;
}
