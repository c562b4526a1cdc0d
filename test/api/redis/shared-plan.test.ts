/**
 * Two processes on one token (two clients, each with its own connection to Redis, as two hosts
 * would have) against the emulator on one virtual clock: together they stay inside the plan (no
 * 429 at the emulator), use it fully, and Redis's day count equals the emulator's. Then Redis loses
 * everything mid-run: no over-admission after it comes back, and the day count is rebuilt.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo, ServiceClient } from '../../../src/api/index.js';
import { PLANS } from '../../../src/api/plans.js';
import { RedisCoordinator } from '../../../src/api/redis/redis-coordinator.js';
import { CoordinatorDownError } from '../../../src/core/errors.js';
import { theoreticalLastAdmission } from '../../helpers/sliding-window-oracle.js';
import { useRedisServer } from '../../helpers/redis-server.js';
import { startWorld, type World } from '../helpers/emulator.js';
import { flush, settled } from './coordinator-fixture.js';

const CODES = ['AAPL.US', 'EURUSD', '700.HK', 'BTCUSDT', 'GOLD'];

function traffic(client: ServiceClient, n: number): Promise<unknown[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) => {
      const code = CODES[i % CODES.length]!;
      if (i % 3 === 0) return client.kline({ code, klineType: 1, count: 10 });
      if (i % 3 === 1) return client.depthTicks([code]);
      return client.tradeTicks([code]);
    }),
  );
}

describe('one plan shared by two processes through Redis', () => {
  const server = useRedisServer();
  let world: World | undefined;
  const coordinators: RedisCoordinator[] = [];

  beforeEach(async () => {
    await flush(server().url);
    await settled(server().url);
  });
  afterEach(async () => {
    await world?.close();
    world = undefined;
    for (const c of coordinators.splice(0)) await c.close();
  });

  async function twoProcesses() {
    world = await startWorld();
    const out: { client: ServiceClient; infos: RequestInfo[] }[] = [];
    for (let i = 0; i < 2; i++) {
      const coordinator = await RedisCoordinator.connect(server().url);
      coordinators.push(coordinator);
      out.push(world.client('professional', { coordinator }));
    }
    return out;
  }

  it('stays inside the plan together and counts the day as the emulator does', async () => {
    const [a, b] = await twoProcesses();
    const t0 = world!.clock.now();
    await Promise.all([traffic(a!.client, 150), traffic(b!.client, 150)]);
    const rejected = [...a!.infos, ...b!.infos].filter((i) => i.outcome !== 'ok');
    expect(rejected).toEqual([]);
    expect(world!.emu.usage('demo-professional')?.day.used).toBe(300);
    expect((await a!.client.quotaStatus()).used).toBe(300);
    // Alone, one process needs this long for 300; two sharing the plan cannot do it faster. (How
    // close they come is measured in real time by the CLI test: on one virtual clock each process's
    // sleeps move the other's answers later, which says nothing about real use.)
    const limits = PLANS.professional;
    expect(world!.clock.now() - t0).toBeGreaterThanOrEqual(theoreticalLastAdmission(300, [limits.perSecond, limits.perMinute]));
  });

  it('Redis restarted mid-run: no 429 after it comes back, and the day count is rebuilt', async () => {
    const [a, b] = await twoProcesses();
    await Promise.all([traffic(a!.client, 60), traffic(b!.client, 45)]);
    await server().restart();
    // The clients reconnect on their own; wait until Redis answers them again.
    for (let i = 0; i < 100; i++) {
      const status = await a!.client.quotaStatus().catch((e: unknown) => e);
      if (!(status instanceof CoordinatorDownError)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const before = world!.clock.now();
    await Promise.all([traffic(a!.client, 60), traffic(b!.client, 60)]);
    const rejected = [...a!.infos, ...b!.infos].filter((i) => i.outcome !== 'ok');
    expect(rejected.map((i) => ({ outcome: i.outcome, ret: i.ret, at: i.sentAt - before }))).toEqual([]);
    expect(world!.emu.usage('demo-professional')?.day.used).toBe(225);
    // Rebuilt: both processes added back what they had charged before the restart.
    expect((await b!.client.quotaStatus()).used).toBe(225);
    // The restart guard held every window closed for a minute (what Redis forgot had to leave it).
    expect(world!.clock.now() - before).toBeGreaterThanOrEqual(60_000);
  });
});
