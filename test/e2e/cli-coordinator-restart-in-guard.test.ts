/**
 * A Redis restarted (killed and started again empty, not lost) while a run is held by the restart
 * guard of a fresh Redis, through the built CLI against a real redis-server and a served emulator
 * behind a recording proxy. The restarted Redis has forgotten the guard's instant as well: its own
 * guard must hold the run until its own start + the lease, so no request reaches the service
 * before that, and the run then completes with the data an uninterrupted run fetches. The plan has
 * no per-minute window and service.timeouts sum to 6 s, so each hold is the 6 s lease, not a minute.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { startRedisServer, type RedisTestServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';
import { minutelessPipelineFile, REPLAY_TOKEN, serveMinuteless, type ServedMinuteless } from './helpers/minuteless-plan.js';
import type { RecordingProxy } from './helpers/recording-proxy.js';

const NOW = '2026-11-12T15:00:00Z';
const TOKEN = 'guard-token';
const CODES = ['BTCUSDT', 'ETHUSDT', 'EURUSD'];
const SPAN = ['--since', '2026-11-10T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];
/** connect + headers + body of service.timeouts below: a slot's lease, and each guard's hold. */
const LEASE_MS = 6000;

type Row = { code: string; ts: number };

async function lakeRows(output: string): Promise<Row[]> {
  const rows = (await readLakeRecords(output, 'kline', 'parquet')).map(({ source: _source, ...r }) => r as Row);
  return rows.sort((a, b) => a.code.localeCompare(b.code) || a.ts - b.ts);
}

describe('Redis restarted during the restart guard of a fresh Redis', () => {
  let redis: RedisTestServer;
  let served: ServedMinuteless;
  let emulatorUrl: string;
  let proxy: RecordingProxy;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('ql-guard-restart-');
    served = await serveMinuteless(dir, TOKEN, NOW);
    ({ emulatorUrl, proxy } = served);
  });
  afterAll(async () => {
    await served?.stop();
    await redis?.stop();
  });

  it('no request before the restarted server\'s own hold ends; the run completes with every bar', async () => {
    // Fresh, never settled: the run's first admission is held for the lease from its start.
    redis = await startRedisServer();
    const output = join(dir, 'held');
    const run = startCli(['run', minutelessPipelineFile(dir, 'held', CODES, 2000), '--output', output, '--base-url', proxy.url, '--token', TOKEN, '--coordinator', redis.url, '--clock', NOW, ...SPAN, '--json', '--log-format', 'json']);
    const guard = await run.waitForStderr(/"event":"coordinator-guard","until":"[^"]+","waitMs":(\d+)/);
    const heldFor = Number(guard[1]);
    expect(heldFor).toBeGreaterThan(3000);
    // Restarted 2 s into the hold: the first server's hold ends about 2 s before the second's, so a
    // run that kept the first instant would send early (Redis's time is real: no clock to inject).
    await sleep(2000);
    expect(proxy.arrivals).toEqual([]);
    const restartedAt = Date.now();
    await redis.restart();
    const r = await run.result;
    expect(r.code, r.stderr).toBe(0);

    // The restarted server noted its own start: nothing went out before its start + the lease,
    // which is also past the first server's hold.
    const first = Math.min(...proxy.arrivals.map((a) => a.at));
    expect(first).toBeGreaterThanOrEqual(restartedAt + LEASE_MS);
    expect(proxy.arrivals.filter((a) => a.rateLimited)).toEqual([]);
    // Said once a process, at warn (the second hold is the same wait, longer).
    expect(r.stderr.split('\n').filter((l) => l.includes('"event":"coordinator-guard"'))).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ command: 'run', exitCode: 0, runs: [{ status: 'succeeded' }] });

    // Complete, exact data: what an uninterrupted, unthrottled run of the same codes fetches.
    const whole = join(dir, 'whole');
    const reference = await runCli(['run', minutelessPipelineFile(dir, 'whole', CODES, 2000), '--output', whole, '--base-url', emulatorUrl, '--token', REPLAY_TOKEN, '--plan', 'replay', '--clock', NOW, ...SPAN, '--quiet']);
    expect(reference.code, reference.stderr).toBe(0);
    const expected = await lakeRows(whole);
    expect(expected.length).toBeGreaterThan(5000);
    expect(await lakeRows(output)).toEqual(expected);
  }, 60_000);
});
