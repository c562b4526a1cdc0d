/**
 * Adds slices as jobs whose ids derive from what they cover: a slice already queued, running or
 * done is not added again (one still to run takes the pipeline definition given now); one that
 * failed for good is retried, and one they cover with a longer range is removed. Returns what happened to each.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { addRequestsLeft } from './requests-left.js';
import { dropSupersededFailures } from './superseded-failures.js';
import { SLICE_JOB_OPTIONS, type QueueJobData } from './slice-queue.js';
import { sliceJobId, type Slice } from './slice.js';

export interface EnqueueCounts {
  /** Added now. */
  added: number;
  /** Already waiting, delayed or being run. */
  queued: number;
  /** Already done (kept for two weeks after completion). */
  completed: number;
  /** Had failed every attempt: retried now. */
  retried: number;
  /** Failed slices of a shorter range (the newest partition's, cut at an earlier "now") that slices enqueued now cover: removed. */
  superseded: number;
}

/** Slices handled side by side: ioredis pipelines their commands, a year of series-days takes seconds, not minutes. */
const CHUNK = 256;

export async function enqueueSlices(queue: Queue<QueueJobData>, redis: Redis, slices: readonly Slice[]): Promise<EnqueueCounts> {
  const counts: EnqueueCounts = { added: 0, queued: 0, completed: 0, retried: 0, superseded: 0 };
  const one = async (slice: Slice): Promise<void> => {
    const jobId = sliceJobId(slice);
    const state = await queue.getJobState(jobId);
    if (state === 'completed') counts.completed++;
    else if (state === 'failed') {
      const job = await queue.getJob(jobId);
      // Retried as queued now: a slice failed on a pipeline file since mended runs with the mended one.
      // (BullMQ types updateData's argument as the intersection of the union's members: never.)
      await job?.updateData({ kind: 'slice', ...slice } satisfies QueueJobData as never);
      await job?.retry('failed');
      counts.retried++;
    } else if (state !== 'unknown') {
      // Queued with another pipeline definition (the file edited since) or file: it runs with the one given now.
      const job = await queue.getJob(jobId);
      const data = job?.data;
      const other = data?.kind === 'slice' && (data.definition !== slice.definition || data.pipelinePath !== slice.pipelinePath || data.pipeline !== slice.pipeline);
      if (other) await job?.updateData({ kind: 'slice', ...slice } satisfies QueueJobData as never);
      counts.queued++;
    }
    else {
      // Two enqueuers racing on one new id still make one job: BullMQ's add keeps the first.
      // (Both then count its requests: the ETA errs long, never short.)
      await queue.add('slice', { kind: 'slice', ...slice }, { ...SLICE_JOB_OPTIONS, jobId });
      await addRequestsLeft(redis, slice.requests);
      counts.added++;
    }
  };
  for (let i = 0; i < slices.length; i += CHUNK) await Promise.all(slices.slice(i, i + CHUNK).map(one));
  counts.superseded = await dropSupersededFailures(queue, redis, slices);
  return counts;
}
