/**
 * The queue's epoch: a random id the first worker (or enqueue) on a Redis draws, which lives as
 * long as Redis keeps its data. A Redis restarted without persistence loses the queue with it:
 * the slices waiting and running are gone, and a `worker --until-empty` then finds the queue
 * drained and would exit 0 with the run not done. A worker that finds its epoch gone says so.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { QUEUE_NAME, QUEUE_PREFIX } from './slice-queue.js';

const KEY = `${QUEUE_PREFIX}:${QUEUE_NAME}:epoch`;

/** The queue's epoch, drawn now if this Redis has none. */
export async function queueEpoch(redis: Redis): Promise<string> {
  await redis.set(KEY, randomBytes(8).toString('hex'), 'NX');
  return (await redis.get(KEY)) ?? '';
}

/** Whether Redis still holds `epoch`: false once it lost its data (or another epoch began since). */
export async function epochKept(redis: Redis, epoch: string): Promise<boolean> {
  return (await redis.get(KEY)) === epoch;
}

/**
 * Tells `lost` each time Redis comes back without `epoch` (restarted without its data): a worker
 * running until stopped would otherwise wait on a queue that is no longer there, its schedules
 * gone with it, without a word. The epoch drawn anew is watched from then on, so a second loss is
 * told too. Returns the function that stops watching.
 */
export function watchQueueEpoch(redis: Redis, epoch: Promise<string | undefined>, lost: () => void): () => void {
  let current: string | undefined;
  void epoch.then((e) => (current ??= e));
  const check = () => {
    const watched = current;
    if (watched === undefined) return;
    void (async () => {
      if (await epochKept(redis, watched)) return;
      current = await queueEpoch(redis);
      lost();
    })().catch(() => undefined);
  };
  redis.on('ready', check);
  return () => void redis.off('ready', check);
}
