/**
 * What the queue holds and how long the rest takes: the plan caps the request rate (not CPU), so
 * the ETA is the planned requests of the slices not yet done over the plan's sustained rate.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { requestsLeft } from './requests-left.js';
import type { QueueJobData } from './slice-queue.js';

export interface QueueStatus {
  /** Slices to run: waiting, and delayed by a retry's backoff (a schedule's next firing is not one). */
  readonly waiting: number;
  /** Of those, slices a worker could take now: not delayed (by a retry's backoff or the daily quota). */
  readonly runnable: number;
  readonly active: number;
  readonly completed: number;
  readonly failed: number;
  /** Requests the slices not yet done still need, as planned. */
  readonly requestsLeft: number;
  /** Seconds at the plan's rate; 0 when nothing is left. */
  readonly etaSeconds: number;
}

export async function queueStatus(queue: Queue<QueueJobData>, redis: Redis, requestsPerSecond: number): Promise<QueueStatus> {
  const c = await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed');
  // Each schedule keeps one delayed job for its next firing: not a slice.
  const schedules = await queue.getJobSchedulersCount();
  const left = await requestsLeft(redis);
  return {
    waiting: Math.max(0, (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0) - schedules),
    runnable: (c.waiting ?? 0) + (c.prioritized ?? 0),
    active: c.active ?? 0,
    completed: c.completed ?? 0,
    failed: c.failed ?? 0,
    requestsLeft: left,
    etaSeconds: left === 0 ? 0 : Math.ceil(left / requestsPerSecond),
  };
}
