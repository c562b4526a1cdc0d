/**
 * A program shares one plan between two clients through the package's entry point alone:
 * connectRedisCoordinator on a real Redis (loopback), the emulator in-process on one frozen clock.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, connectRedisCoordinator, createClient, CoordinatorDownError, ManualClock, startEmulator } from '../../../src/index.js';
import { closedPort } from '../../helpers/closed-port.js';
import { useRedisServer } from '../../helpers/redis-server.js';

const TOKEN = 'demo-basic';
const server = useRedisServer({ settled: [TOKEN] });
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('connectRedisCoordinator (the library entry point of a shared plan)', () => {
  it('gives createClient a coordinator: two clients count one day together, as the service does', async () => {
    const clock = new ManualClock('2026-11-20T00:00:00Z');
    const emulator = await startEmulator({ clock, log: () => {} });
    const coordinators = [await connectRedisCoordinator(server().url), await connectRedisCoordinator(server().url)];
    const clients = await Promise.all(
      coordinators.map(async (coordinator) => {
        const stateDir = await mkdtemp(join(tmpdir(), 'ql-connect-redis-'));
        scratch.push(stateDir);
        return createClient({ baseUrl: emulator.url, token: TOKEN, plan: 'basic', stateDir, clock, coordinator });
      }),
    );
    try {
      await Promise.all(clients.flatMap((client, i) => Array.from({ length: 3 + i }, () => client.kline({ code: 'BTCUSDT', klineType: 1, count: 2 }))));
      expect(emulator.usage(TOKEN)?.day.used).toBe(7);
      for (const client of clients) expect((await client.quotaStatus()).used).toBe(7);
      const [day] = await coordinators[0]!.dayCounts();
      expect(day).toMatchObject({ day: '2026-11-20', used: 7, processes: 2 });
      expect(coordinators[0]!.target).toBe(server().url);
    } finally {
      for (const client of clients) await client.close();
      for (const coordinator of coordinators) await coordinator.close();
      await emulator.close();
    }
  });

  it('refuses a URL it cannot use (ConfigError, password masked) and a Redis that is not there (CoordinatorDownError)', async () => {
    await expect(connectRedisCoordinator('http://127.0.0.1:6379')).rejects.toThrow(ConfigError);
    await expect(connectRedisCoordinator('redis://:s3cret@127.0.0.1:6379/zero')).rejects.toMatchObject({
      code: 'QL_CONFIG',
      message: 'coordinator: the database after the port must be a number, got "zero"',
      hint: 'give one such as redis://127.0.0.1:6379/0',
    });
    await expect(connectRedisCoordinator('redis//:s3cret@host')).rejects.toThrow(/^coordinator must be a URL such as redis:\/\/127\.0\.0\.1:6379\/0, got "(?!.*s3cret)/);
    await expect(connectRedisCoordinator(`redis://127.0.0.1:${await closedPort()}`)).rejects.toBeInstanceOf(CoordinatorDownError);
  });
});
