import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteQuotaReset, quotaResetMet } from '../../src/queue/quota-reset.js';
import { useRedisServer } from '../helpers/redis-server.js';

describe('the quota reset a worker met, shared through the coordinator', () => {
  const server = useRedisServer();
  let a: Redis;
  let b: Redis;
  beforeAll(() => {
    a = new Redis(server().url);
    b = new Redis(server().url);
  });
  afterAll(() => {
    a.disconnect();
    b.disconnect();
  });

  const MIDNIGHT = Date.parse('2026-11-21T00:00:00Z');

  it('none until a worker meets the quota; then every worker sees it, the later of two resets kept', async () => {
    expect(await quotaResetMet(b)).toBeUndefined();
    await noteQuotaReset(a, MIDNIGHT, 60_000);
    expect(await quotaResetMet(b)).toBe(MIDNIGHT);
    await noteQuotaReset(b, MIDNIGHT - 3_600_000, 60_000);
    expect(await quotaResetMet(a)).toBe(MIDNIGHT);
    await noteQuotaReset(b, MIDNIGHT + 86_400_000, 60_000);
    expect(await quotaResetMet(a)).toBe(MIDNIGHT + 86_400_000);
  });

  it('gone once its reset has passed (the key expires with the wait)', async () => {
    await a.del('quotelake:slices:quota-reset');
    await noteQuotaReset(a, MIDNIGHT, 20);
    const ttl = await a.pttl('quotelake:slices:quota-reset');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(20);
    // Redis expires the key itself: wait for it on Redis' clock, not on a test timer's.
    for (let i = 0; i < 200 && (await a.exists('quotelake:slices:quota-reset')) === 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await quotaResetMet(b)).toBeUndefined();
  });
});
