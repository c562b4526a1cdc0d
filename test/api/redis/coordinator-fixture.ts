/** A Redis coordinator on the tests' server, and one token's admission on a manual clock. */
import { Redis } from 'ioredis';
import type { AdmissionContext } from '../../../src/api/admission.js';
import { PLANS, type PlanLimits } from '../../../src/api/plans.js';
import { tokenHash16 } from '../../../src/api/quota-store.js';
import { RedisCoordinator } from '../../../src/api/redis/redis-coordinator.js';
import { tokenKeys } from '../../../src/api/redis/redis-keys.js';
import type { RedisLimiter } from '../../../src/api/redis/redis-limiter.js';
import type { RedisQuota } from '../../../src/api/redis/redis-quota.js';
import { manualSleep } from '../../../src/api/sleep.js';
import { ManualClock } from '../../../src/core/clock.js';

export const TOKEN = 'demo-professional';

export function contextFor(clock: ManualClock, overrides: Partial<AdmissionContext> = {}): AdmissionContext {
  return {
    tokenHash: tokenHash16(TOKEN),
    limits: PLANS.professional,
    clock,
    virtualClock: true,
    sleep: manualSleep(clock),
    marginMs: 0,
    maxInFlight: 1000,
    timeZone: 'UTC',
    requestTimeoutMs: 65_000,
    ...overrides,
  };
}

export function withDayLimit(perDay: number): PlanLimits {
  return { ...PLANS.professional, perDay };
}

/** Mark the server as one that has coordinated for long (no restart guard): what a first run meets. */
export async function settled(url: string, tokenHash = tokenHash16(TOKEN)): Promise<void> {
  const redis = new Redis(url);
  await redis.set(tokenKeys(tokenHash).epoch, '0');
  redis.disconnect();
}

export async function flush(url: string): Promise<void> {
  const redis = new Redis(url);
  await redis.flushall();
  redis.disconnect();
}

export async function admissionOn(url: string, context: AdmissionContext) {
  const coordinator = await RedisCoordinator.connect(url);
  const { limiter, quota } = coordinator.admission(context);
  return { coordinator, limiter: limiter as RedisLimiter, quota: quota as RedisQuota };
}
