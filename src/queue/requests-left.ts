/**
 * The planned requests of the slices not yet done, kept as one Redis counter: added when a slice is
 * enqueued, taken off when it completes. Counting it from the jobs themselves would read every job
 * of a large backfill (a million slices) for each `queue status`.
 */
import type { Redis } from 'ioredis';
import { QUEUE_NAME, QUEUE_PREFIX } from './slice-queue.js';

const KEY = `${QUEUE_PREFIX}:${QUEUE_NAME}:requests-left`;

export async function addRequestsLeft(redis: Redis, requests: number): Promise<void> {
  if (requests !== 0) await redis.incrby(KEY, requests);
}

export async function requestsLeft(redis: Redis): Promise<number> {
  return Math.max(0, Number((await redis.get(KEY)) ?? 0));
}
