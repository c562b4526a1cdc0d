/**
 * The daily quota's reset that a slice met, shared by every worker of the queue. A worker that
 * meets the quota parks its slice until the reset; another worker draining with --until-empty then
 * sees nothing it can run, and must know why to end its batch (exit 75) instead of waiting hours
 * for a reset it never met itself. The key expires at the reset (on the machine's clock, as the
 * queue's delays), so yesterday's reset never ends today's batch.
 */
import type { Redis } from 'ioredis';
import { QUEUE_NAME, QUEUE_PREFIX } from './slice-queue.js';

const KEY = `${QUEUE_PREFIX}:${QUEUE_NAME}:quota-reset`;

// The later reset wins: two plans' slices parked at once wait for the last of the two.
const KEEP_LATER = `
local seen = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > seen then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1`;

/** A slice met the quota: it resets at `resetAt` (epoch ms, the command's clock), `waitMs` from now. */
export async function noteQuotaReset(redis: Redis, resetAt: number, waitMs: number): Promise<void> {
  await redis.eval(KEEP_LATER, 1, KEY, String(Math.round(resetAt)), String(Math.max(1, Math.round(waitMs))));
}

/** The latest reset a worker of this queue met and which has not passed, if any. */
export async function quotaResetMet(redis: Redis): Promise<number | undefined> {
  const text = await redis.get(KEY);
  const at = text === null ? NaN : Number(text);
  return Number.isFinite(at) && at > 0 ? at : undefined;
}
