/**
 * Slices failed for good, by whichever worker of the queue failed them, with that failure's exit
 * code. A `worker --until-empty` drains the whole queue, not only its own slices: a batch of
 * several workers (on one host or many) where another worker failed a slice did not deliver
 * everything, and no worker of it may exit 0. Each entry is stamped on the machine's clock (as
 * BullMQ stamps its jobs); kept as long as the queue keeps failed jobs.
 */
import type { Redis } from 'ioredis';
import { QUEUE_NAME, QUEUE_PREFIX } from './slice-queue.js';

const KEY = `${QUEUE_PREFIX}:${QUEUE_NAME}:failed-for-good`;
const KEPT_MS = 30 * 86_400_000;

export interface SliceFailure {
  readonly id: string;
  readonly exitCode: number;
}

/** Slice `id` failed for good at `atMs` (epoch ms), with the exit code its failure means. */
export async function recordSliceFailed(redis: Redis, failure: SliceFailure, atMs: number): Promise<void> {
  await redis.multi().zadd(KEY, atMs, `${failure.exitCode} ${failure.id}`).zremrangebyscore(KEY, '-inf', atMs - KEPT_MS).exec();
}

/** The slices failed for good at or after `sinceMs` (epoch ms), by any worker. */
export async function slicesFailedSince(redis: Redis, sinceMs: number): Promise<SliceFailure[]> {
  const members = await redis.zrangebyscore(KEY, sinceMs, '+inf');
  return members.map((m) => {
    const at = m.indexOf(' ');
    return { exitCode: Number(m.slice(0, at)), id: m.slice(at + 1) };
  });
}
