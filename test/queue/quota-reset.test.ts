import { describe, expect, it } from 'vitest';
import { noteQuotaReset, quotaResetMet } from '../../src/queue/quota-reset.js';
import { useRedisServer, useTwoConnections } from '../helpers/redis-server.js';

describe('the quota reset a worker met, shared through the coordinator', () => {
  const server = useRedisServer();
  const connections = useTwoConnections(server);

  const MIDNIGHT = Date.parse('2026-11-21T00:00:00Z');

  it('none until a worker meets the quota; then every worker sees it, the later of two resets kept', async () => {
    const [a, b] = connections();
    expect(await quotaResetMet(b)).toBeUndefined();
    await noteQuotaReset(a, MIDNIGHT, 60_000);
    expect(await quotaResetMet(b)).toBe(MIDNIGHT);
    await noteQuotaReset(b, MIDNIGHT - 3_600_000, 60_000);
    expect(await quotaResetMet(a)).toBe(MIDNIGHT);
    await noteQuotaReset(b, MIDNIGHT + 86_400_000, 60_000);
    expect(await quotaResetMet(a)).toBe(MIDNIGHT + 86_400_000);
  });

  it('gone once its reset has passed (the key expires with the wait)', async () => {
    const [a, b] = connections();
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
