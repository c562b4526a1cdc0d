import { afterEach, describe, expect, it } from 'vitest';
import { PLANS, type PlanName } from '../../src/api/plans.js';
import { theoreticalLastAdmission } from '../helpers/sliding-window-oracle.js';
import { startWorld, type World } from './helpers/emulator.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const MARKET_CODES = ['AAPL.US', 'EURUSD', '700.HK', 'BTCUSDT', 'GOLD'];

describe('client against the emulator: windows used to the last request, never rejected', () => {
  it.each([
    ['professional', 200],
    ['all-us', 60],
    ['premium', 120],
    ['basic', 25],
    ['free', 8],
  ] as [PlanName, number][])('%s: %i mixed requests, zero 429s, clock time = theoretical minimum', async (plan, n) => {
    world = await startWorld();
    const { client, infos } = world.client(plan);
    const t0 = world.clock.now();
    const codes = plan === 'all-us' ? ['AAPL.US', 'TSLA.US'] : MARKET_CODES;
    await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const code = codes[i % codes.length]!;
        if (i % 3 === 0) return client.kline({ code, klineType: 1, count: 10 });
        if (i % 3 === 1) return client.depthTicks([code]);
        return client.tradeTicks([code]);
      }),
    );
    const limits = PLANS[plan];
    expect(infos).toHaveLength(n);
    expect(infos.filter((i) => i.outcome !== 'ok')).toEqual([]);
    expect(world.clock.now() - t0).toBe(theoreticalLastAdmission(n, [limits.perSecond, limits.perMinute]));
    const usage = world.emu.usage(`demo-${plan}`);
    expect(usage?.day.used).toBe(n);
    expect((await client.quotaStatus()).used).toBe(n);
  });

  it('per-minute window binds on professional (1300 requests: 1200 in the first minute)', async () => {
    world = await startWorld();
    const { client, infos } = world.client('professional');
    const t0 = world.clock.now();
    await Promise.all(Array.from({ length: 1300 }, () => client.tradeTicks(['EURUSD'])));
    expect(infos.filter((i) => i.outcome !== 'ok')).toHaveLength(0);
    const limits = PLANS.professional;
    expect(world.clock.now() - t0).toBe(theoreticalLastAdmission(1300, [limits.perSecond, limits.perMinute]));
    expect(world.clock.now() - t0).toBe(64_000);
  });

  it.each([
    ['professional', 1000],
    ['premium', 2000],
    ['basic', 3000],
    ['free', 10_000],
  ] as [PlanName, number][])('%s: /batch-kline minimum gap of %i ms, other requests not held back', async (plan, gap) => {
    world = await startWorld();
    const { client, infos } = world.client(plan);
    const t0 = world.clock.now();
    const batches = Array.from({ length: 3 }, () => client.batchKline([{ code: 'AAPL.US', klineType: 1 }]));
    const kline = client.kline({ code: 'EURUSD', klineType: 1, count: 1 });
    const [first] = await Promise.all([...batches, kline]);
    expect(infos.filter((i) => i.outcome !== 'ok')).toEqual([]);
    const batchTimes = infos.filter((i) => i.endpoint.endsWith('/batch-kline')).map((i) => i.sentAt - t0);
    expect(batchTimes).toEqual([0, gap, 2 * gap]);
    const klineTime = infos.find((i) => i.endpoint.endsWith('/kline'))!.sentAt - t0;
    // The kline waits only for the combined windows, never behind a batch's gap (on Free the gap
    // equals the per-second window, so first come, first served puts it after the batches).
    const combinedOnly = theoreticalLastAdmission(2, [PLANS[plan].perSecond]);
    const sharesSlot = PLANS[plan].perSecond.limit === 1 && gap === PLANS[plan].perSecond.windowMs;
    expect(klineTime).toBe(sharesSlot ? 3 * gap : combinedOnly);
    expect((first as { series: unknown[] }).series).toHaveLength(1);
  });

  it('suspension: 1 per minute per exchange, exchanges independent', async () => {
    world = await startWorld();
    const { client, infos } = world.client('professional');
    const t0 = world.clock.now();
    const results = await Promise.all([
      client.halts('sse'),
      client.halts('sse'),
      client.halts('sse'),
      client.halts('nyse'),
      client.halts('nyse'),
    ]);
    expect(infos.filter((i) => i.outcome !== 'ok')).toEqual([]);
    const at = (ex: string) => infos.filter((i) => i.endpoint === `/api/suspension/${ex}`).map((i) => i.sentAt - t0);
    expect(at('sse')).toEqual([0, 60_000, 120_000]);
    expect(at('nyse')).toEqual([0, 60_000]);
    expect(results[0]?.success).toBe(true);
    expect(results[0]?.data.length).toBe(results[0]?.totalCount);
  });

  it('suspension pages (S1) from every exchange validate', async () => {
    world = await startWorld();
    const { client } = world.client('professional');
    for (const exchange of ['sse', 'nyse', 'nasdaq'] as const) {
      const page = await client.halts(exchange, { page: 1, size: 3 });
      expect(page.success).toBe(true);
      expect(page.currentPage).toBe(1);
      expect(page.data.length).toBeLessThanOrEqual(3);
      expect(page.currentSize).toBe(page.data.length);
      expect(page.totalPages).toBe(Math.ceil(page.totalCount / 3));
      for (const record of page.data) expect(typeof record.symbol).toBe('string');
    }
  });
});
