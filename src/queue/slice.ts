/**
 * A slice: one or more series of one interval (codes × interval) over one lake partition's span,
 * the unit of work the queue hands to workers. Its job id is derived from what it covers, so
 * enqueueing the same run twice adds nothing the second time.
 */
import { createHash } from 'node:crypto';
import type { Interval } from '../core/records.js';

export interface Slice {
  /** The pipeline as named to `enqueue` (a shipped name or a path every worker host can read). */
  readonly pipeline: string;
  /** The file `enqueue` read, absolute (a worker looks there first: cli/queue/slice-pipeline.ts); absent from earlier versions' slices. */
  readonly pipelinePath?: string | undefined;
  /** The pipeline's own name (its state and run manifests go under it). */
  readonly name: string;
  /** The codes fetched, each over the same span (group-slices.ts). */
  readonly codes: readonly string[];
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
  /** State folder given to `enqueue` (`--state-dir`, the pipeline's `stateDir`), absolute; else `<output>/.state`. */
  readonly stateDir?: string | undefined;
  /** A hash of the pipeline's transforms and sink as the enqueuer read them (cli/queue/slice-definition.ts); absent from earlier versions' slices. */
  readonly definition?: string | undefined;
}

/**
 * Stable id: the same pipeline, series, range and lake always give the same id. A hash, because
 * BullMQ refuses ids with `:` (ISO times) and codes may hold any character.
 */
export function sliceJobId(s: Pick<Slice, 'name' | 'codes' | 'interval' | 'fromMs' | 'untilMs' | 'output' | 'format'>): string {
  // One code keeps the id of a slice of one series (what 0.x enqueued), so no range is queued twice.
  const codes = s.codes.length === 1 ? s.codes[0] : s.codes;
  const key = JSON.stringify([s.name, codes, s.interval, s.fromMs, s.untilMs, s.output ?? '', s.format ?? '']);
  return `slice-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/** A slice as a worker reads it off the queue: one enqueued by a version of one code per slice says `code`. */
export function sliceOfJobData(data: Omit<Slice, 'codes'> & { readonly codes?: readonly string[]; readonly code?: string }): Slice {
  const { code, codes, ...rest } = data;
  return { ...rest, codes: codes ?? (code === undefined ? [] : [code]) };
}
