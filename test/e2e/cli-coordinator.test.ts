/**
 * `--coordinator`: one professional token shared by two CLI processes running different pipelines
 * at once, measured at the service's door (a recording proxy before the emulator): no 429 and every
 * window within the plan, where the same two runs without it are refused. The shared count equals
 * the emulator's. A Redis that is not there, or dies mid-run, stops the run (exit 1, the message,
 * nothing half-written); once it is back the same command resumes and completes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash16 } from '../../src/api/index.js';
import { tokenKeys } from '../../src/api/redis/redis-keys.js';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator, type EmulatorHandle } from '../../src/emulator/index.js';
import { closedPort } from '../helpers/closed-port.js';
import { startRedisServer, useRedisServer, type RedisTestServer } from '../helpers/redis-server.js';
import { windowViolations } from '../helpers/sliding-window-oracle.js';
import { allFiles, runCli, startCli, tempDir } from './helpers/cli.js';
import { startRecordingProxy, type RecordingProxy } from './helpers/recording-proxy.js';

const NOW = '2026-11-12T15:00:00Z';
const TOKEN = 'demo-professional';
const SERVICE = ['--token', TOKEN, '--plan', 'professional', '--clock', NOW, '--json', '--quiet'];
const SPAN = ['--since', '2026-11-03T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];

/** A Redis that has coordinated for long: no restart guard for the first run (see redis-scripts.ts). */
async function settle(url: string): Promise<void> {
  const redis = new Redis(url);
  await redis.set(tokenKeys(tokenHash16(TOKEN)).epoch, '0');
  redis.disconnect();
}

function secondPipeline(dir: string): string {
  const file = join(dir, 'metals.yaml');
  writeFileSync(
    file,
    ['name: metals', 'service:', '  plan: professional', 'source:', '  type: kline-history', '  codes: [GOLD, Silver, USDJPY, USOIL]', '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'),
  );
  return file;
}

function inPlan(arrivals: readonly { at: number }[]) {
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  return { second: windowViolations(times, 20, 1000), minute: windowViolations(times, 1200, 60_000) };
}

/** An emulator behind a recording proxy: the service and its door. */
async function serviceAtTheDoor(): Promise<{ emulator: EmulatorHandle; proxy: RecordingProxy; close(): Promise<void> }> {
  const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
  const proxy = await startRecordingProxy(emulator.url);
  const close = async () => {
    await proxy.close();
    await emulator.close();
  };
  return { emulator, proxy, close };
}

// The two describes have their own emulators and Redis: they run at once (their runs mostly wait on
// the plan's request rate). In the first, each test has an emulator of its own: the service's
// windows (real time) still hold the first test's last requests when the second one's processes
// start, and those would be refused whatever the coordinator does.
describe.concurrent('two processes on one token through --coordinator', () => {
  const redis = useRedisServer();

  async function twoRuns(proxy: RecordingProxy, extra: string[]) {
    const dir = tempDir();
    const metals = secondPipeline(dir);
    const common = ['--base-url', proxy.url, ...SERVICE, ...SPAN, ...extra];
    const a = startCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,SHIBUSDT', '--output', join(dir, 'a'), ...common]);
    const b = startCli(['run', metals, '--output', join(dir, 'b'), ...common]);
    return { dir, results: await Promise.all([a.result, b.result]) };
  }

  it('without it, the two runs together exceed the plan (the service answers 429)', async () => {
    const { proxy, close } = await serviceAtTheDoor();
    try {
      const { results } = await twoRuns(proxy, []);
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      expect(proxy.arrivals.filter((a) => a.rateLimited).length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  }, 60_000);

  it('with it: no 429, every window within the plan, and the shared count equals the service\'s', async () => {
    const { emulator, proxy, close } = await serviceAtTheDoor();
    try {
      await settle(redis().url);
      const { results } = await twoRuns(proxy, ['--coordinator', redis().url]);
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const sent = proxy.arrivals.length;
      expect(sent).toBeGreaterThan(150);
      expect(proxy.arrivals.filter((a) => a.rateLimited)).toEqual([]);
      expect(inPlan(proxy.arrivals)).toEqual({ second: 0, minute: 0 });
      expect(emulator.usage(TOKEN)?.day.used).toBe(sent);

      const quota = await runCli(['quota', '--coordinator', redis().url, '--token', TOKEN, '--clock', NOW, '--json']);
      expect(quota.code, quota.stderr).toBe(0);
      const shared = (JSON.parse(quota.stdout) as { coordinator: { tokens: { tokenHash: string; usedToday: number; limit: number; processes: number; day: string }[] } }).coordinator.tokens;
      expect(shared).toEqual([expect.objectContaining({ tokenHash: tokenHash16(TOKEN), day: '2026-11-12', usedToday: sent, limit: 1_728_000, processes: 2 })]);
      expect(quota.stdout).not.toContain(TOKEN);
    } finally {
      await close();
    }
  }, 60_000);
});

describe.concurrent('a lost coordinator fails the run closed', () => {
  let server: RedisTestServer;
  let emulator: EmulatorHandle;

  beforeAll(async () => {
    server = await startRedisServer();
    emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
  });
  afterAll(async () => {
    await server.stop();
    await emulator.close();
  });

  it('one that is not there: exit 1 before anything is sent or written', async () => {
    const output = tempDir();
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const r = await runCli(['run', 'kline-backfill', '--base-url', emulator.url, ...SERVICE, ...SPAN, '--output', output, '--coordinator', url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`quotelake: coordinator ${url} is unreachable (ECONNREFUSED): no request is admitted without it`);
    expect(r.stderr).toContain('hint: start Redis again');
    expect(allFiles(output)).toEqual([]);
    // QUOTELAKE_REDIS_URL is the same setting.
    const env = await runCli(['run', 'kline-backfill', '--base-url', emulator.url, ...SERVICE, ...SPAN, '--output', output], { env: { QUOTELAKE_REDIS_URL: url } });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain(`coordinator ${url} is unreachable (ECONNREFUSED)`);
    expect(JSON.parse(env.stdout)).toMatchObject({ command: 'run', exitCode: 1, error: { code: 'QL_COORDINATOR_DOWN' } });
  });

  it('one killed mid-run: exit 1 with the message, nothing half-written; the same command then resumes', async () => {
    await settle(server.url);
    const output = tempDir();
    // Ten days (about 124 requests, 6 s at the plan's 20 a second): the kill after 30 still lands mid-run.
    // A patience of 1 s: waiting out a restart is cli-coordinator-patience.test.ts's; here Redis stays down.
    const argsFor = (out: string) => ['run', 'kline-backfill', '--base-url', emulator.url, ...SERVICE, '--since', '2026-11-02T00:00:00Z', '--until', '2026-11-12T00:00:00Z', '--output', out, '--coordinator', server.url, '--coordinator-patience', '1'];
    const args = argsFor(output);
    const usedBefore = emulator.usage(TOKEN)?.day.used ?? 0;
    const run = startCli(args);
    for (let i = 0; i < 400 && (emulator.usage(TOKEN)?.day.used ?? 0) - usedBefore < 30; i++) await new Promise((r) => setTimeout(r, 25));
    await server.kill();
    const r = await run.result;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/quotelake: coordinator redis:\/\/127\.0\.0\.1:\d+ is unreachable \([^)]+\): no request is admitted without it/);
    const summary = (JSON.parse(r.stdout) as { runs: { status: string; error: { code: string }; files: { count: number }; requestsTotal: number }[] }).runs[0]!;
    expect(summary).toMatchObject({ status: 'failed', error: { code: 'QL_COORDINATOR_DOWN' } });
    // What was read whole before Redis went is committed; nothing staged or half-written is left.
    expect(summary.files.count).toBeGreaterThan(0);
    expect(allFiles(output).filter((f) => f.includes('/_quotelake/staging/') || f.includes('.tmp-'))).toEqual([]);

    await server.restart();
    await settle(server.url);
    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    // It resumed: the second run fetched what the first had not committed, not everything again.
    const whole = tempDir();
    const fresh = await runCli(argsFor(whole));
    expect(fresh.code, fresh.stderr).toBe(0);
    const requests = (out: string) => (JSON.parse(out) as { runs: { requestsTotal: number }[] }).runs[0]!.requestsTotal;
    expect(requests(again.stdout)).toBeLessThan(requests(fresh.stdout));
  }, 180_000);
});

