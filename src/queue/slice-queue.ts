/**
 * The queue of slices: one BullMQ queue on the coordinator's Redis, under the `quotelake` prefix
 * so it never mixes with another application's queues on the same server.
 */
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Slice } from './slice.js';

export const QUEUE_NAME = 'slices';
export const QUEUE_PREFIX = 'quotelake';

/** A job is a slice to run, or a schedule firing (the worker then enqueues that run's slices). */
export type QueueJobData = ({ readonly kind: 'slice' } & Slice) | ({ readonly kind: 'schedule' } & ScheduledRun);

/** What a schedule enqueues each time it fires: the `enqueue` command's arguments. */
export interface ScheduledRun {
  readonly pipeline: string;
  /** The file `enqueue` read, absolute, and the pipeline's name (both absent from earlier versions' schedules). */
  readonly pipelinePath?: string | undefined;
  readonly name?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly codes?: string | undefined;
  readonly output?: string | undefined;
  readonly format?: string | undefined;
  readonly stateDir?: string | undefined;
  /** `--slice-requests`: the request budget of a slice of several codes. */
  readonly sliceRequests?: number | undefined;
}

/**
 * Failed slices are retried with backoff (a transient service error, the lake lock held by a
 * `quotelake run`). Completed ones are kept two weeks, so enqueueing the same range again within
 * that time finds them and adds nothing.
 */
export const SLICE_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: { age: 14 * 86_400 },
  removeOnFail: { age: 30 * 86_400 },
};

export function sliceQueue(connection: Redis): Queue<QueueJobData> {
  const queue = new Queue<QueueJobData>(QUEUE_NAME, { connection, prefix: QUEUE_PREFIX });
  // Its connection's errors reach the caller through the calls it awaits (enqueue, status) or the
  // worker's own "queue error" line; without a listener BullMQ prints each one raw on stderr.
  queue.on('error', () => undefined);
  return queue;
}
