/**
 * Adds slices as jobs whose ids derive from what they cover: a slice already queued, running or
 * done is not added again; one that failed for good is retried. Returns what happened to each.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { addRequestsLeft } from './requests-left.js';
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
}

export async function enqueueSlices(queue: Queue<QueueJobData>, redis: Redis, slices: readonly Slice[]): Promise<EnqueueCounts> {
  const counts: EnqueueCounts = { added: 0, queued: 0, completed: 0, retried: 0 };
  for (const slice of slices) {
    const jobId = sliceJobId(slice);
    const existing = await queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (state === 'completed') counts.completed++;
      else if (state === 'failed') {
        await existing.retry('failed');
        counts.retried++;
      } else counts.queued++;
      continue;
    }
    // Two enqueuers racing on one id still make one job: BullMQ's add keeps the first.
    await queue.add('slice', { kind: 'slice', ...slice }, { ...SLICE_JOB_OPTIONS, jobId });
    // (Two enqueuers racing on one new id both count it: the ETA errs long, never short.)
    await addRequestsLeft(redis, slice.requests);
    counts.added++;
  }
  return counts;
}
