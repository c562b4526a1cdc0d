/**
 * A slice: one series (code × interval) over one lake partition's span, the unit of work the queue
 * hands to workers. Its job id is derived from what it covers, so enqueueing the same run twice
 * adds nothing the second time.
 */
import { createHash } from 'node:crypto';
import type { Interval } from '../core/records.js';

export interface Slice {
  /** The pipeline as named to `enqueue` (a shipped name or a path every worker host can read). */
  readonly pipeline: string;
  /** The pipeline's own name (its state and run manifests go under it). */
  readonly name: string;
  readonly code: string;
  readonly interval: Interval;
  /** Oldest bar open (ms, inclusive). */
  readonly fromMs: number;
  /** Newest bar open (ms, inclusive). */
  readonly untilMs: number;
  /** The lake partition the slice fills (`interval=1m/year=2026/date=2026-11-20`), or `series` for a whole stock series. */
  readonly partition: string;
  /** Requests the slice needs, as planned: the queue's ETA sums them. */
  readonly requests: number;
  /** Output root and format given to `enqueue` (else each worker's own settings). */
  readonly output?: string | undefined;
  readonly format?: string | undefined;
}

/**
 * Stable id: the same pipeline, series, range and lake always give the same id. A hash, because
 * BullMQ refuses ids with `:` (ISO times) and codes may hold any character.
 */
export function sliceJobId(s: Pick<Slice, 'name' | 'code' | 'interval' | 'fromMs' | 'untilMs' | 'output' | 'format'>): string {
  const key = JSON.stringify([s.name, s.code, s.interval, s.fromMs, s.untilMs, s.output ?? '', s.format ?? '']);
  return `slice-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}
