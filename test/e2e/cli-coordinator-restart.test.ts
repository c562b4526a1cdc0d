/**
 * Issue 17 scenario (d) through the built CLI: Redis restarted empty in the middle of two runs on one
 * token. A served emulator (`quotelake serve`, a running clock) behind a recording proxy, a real
 * redis-server, and two `quotelake run --coordinator` processes on a plan whose per-minute window is
 * lifted and whose requests time out after 3 s (service.timeouts): the restart guard then holds the
 * windows for the lease (3 s), not a minute. At the service's door: no 429, never more than the
 * plan's 20 requests in any sliding second, a pause of about the lease after the restart; both runs
 * complete with the data an uninterrupted run fetches; the day count Redis rebuilt equals the
 * service's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { settleTokens, startRedisServer, type RedisTestServer } from '../helpers/redis-server.js';
import { windowViolations } from '../helpers/sliding-window-oracle.js';
import { runCli, startCli, tempDir, type CliResult } from './helpers/cli.js';
import { minutelessPipelineFile, REPLAY_TOKEN, serveMinuteless, type ServedMinuteless } from './helpers/minuteless-plan.js';
import type { RecordingProxy } from './helpers/recording-proxy.js';

const NOW = '2026-11-12T15:00:00Z';
const TOKEN = 'restart-token';
/** The plan's per-second limit (professional's); its per-minute window is lifted. */
const PER_SECOND = 20;
/** connect + headers + body of service.timeouts below: a slot's lease, and the guard's hold. */
const LEASE_MS = 3000;
const CRYPTO = ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT'];
const OTHERS = ['EURUSD', 'GOLD', 'Silver', 'USDJPY', 'USOIL'];
/** Requests the service has seen when Redis is restarted (of about 85). */
const RESTART_AFTER = 35;
const SPAN = ['--since', '2026-11-07T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];

function ok(r: CliResult): CliResult {
  expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
  return r;
}

type Row = { code: string; ts: number };

function sorted(rows: Row[]): Row[] {
  return rows.sort((a, b) => a.code.localeCompare(b.code) || a.ts - b.ts);
}

/** The K-line rows of a lake without their `source` (the run that wrote them), in key order. */
async function lakeRows(output: string): Promise<Row[]> {
  return sorted((await readLakeRecords(output, 'kline', 'parquet')).map(({ source: _source, ...r }) => r as Row));
}

describe('Redis restarted empty mid-run (scenario d)', () => {
  let redis: RedisTestServer;
  let served: ServedMinuteless;
  let emulatorUrl: string;
  let proxy: RecordingProxy;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('ql-restart-');
    redis = await startRedisServer();
    // A Redis that has coordinated this token for long: the first run is not held (see redis-scripts.ts).
    await settleTokens(redis.url, [TOKEN]);
    served = await serveMinuteless(dir, TOKEN, NOW);
    ({ emulatorUrl, proxy } = served);
  });
  afterAll(async () => {
    await served?.stop();
    await redis?.stop();
  });

  it('no over-admission, a hold of the lease, complete data, and the day count rebuilt to the service\'s', async () => {
    const a = minutelessPipelineFile(dir, 'crypto', CRYPTO, 1000);
    const b = minutelessPipelineFile(dir, 'others', OTHERS, 1000);
    const common = ['--base-url', proxy.url, '--token', TOKEN, '--coordinator', redis.url, '--clock', NOW, ...SPAN, '--json', '--quiet'];
    const runs = [startCli(['run', a, '--output', join(dir, 'a'), ...common]), startCli(['run', b, '--output', join(dir, 'b'), ...common])];
    // Restart once both have been sending for a while.
    while (proxy.arrivals.length < RESTART_AFTER) {
      const early = await Promise.race([Promise.all(runs.map((r) => r.result)), new Promise((r) => setTimeout(r, 20))]);
      if (Array.isArray(early)) throw new Error(`the runs ended before the restart:\n${early.map((r) => r.stderr).join('\n')}`);
    }
    const killedAt = Date.now();
    await redis.restart();
    const readyAt = Date.now();
    const results = await Promise.all(runs.map((r) => r.result));
    for (const r of results) ok(r);

    // At the service's door: never a 429, never more than the plan's per-second limit in any second.
    const times = proxy.arrivals.map((x) => x.at).sort((x, y) => x - y);
    expect(proxy.arrivals.filter((x) => x.rateLimited)).toEqual([]);
    expect(windowViolations(times, PER_SECOND, 1000)).toBe(0);
    // The guard's hold: what was admitted before the kill lands at once (within the 1 s connect
    // timeout); nothing admitted after it reaches the service before the lease has passed since Redis
    // lost its memory, and traffic resumes soon after: the lease, not the minute of the default timeouts.
    const before = times.filter((t) => t < killedAt + 1000);
    const after = times.filter((t) => t >= killedAt + 1000);
    expect(before.length).toBeGreaterThanOrEqual(RESTART_AFTER);
    expect(after.length).toBeGreaterThan(20);
    expect(after[0]! - killedAt).toBeGreaterThanOrEqual(LEASE_MS);
    // (Plus under 1 s for the guard's rounding of Redis's uptime, and a retry's backoff.)
    expect(after[0]! - readyAt).toBeLessThan(LEASE_MS + 3000);

    // The day count Redis rebuilt from each process's own count equals what the service counted.
    const usage = (await (await fetch(`${emulatorUrl}/_emulator/usage?token=${TOKEN}`)).json()) as { usage: { day: { used: number } } };
    expect(usage.usage.day.used).toBe(proxy.arrivals.length);
    const quota = ok(await runCli(['quota', '--coordinator', redis.url, '--token', TOKEN, '--plan', 'minuteless', '--plans-file', join(dir, 'plans.yaml'), '--clock', NOW, '--json']));
    const shared = (JSON.parse(quota.stdout) as { coordinator: { tokens: { usedToday: number; processes: number; day: string }[] } }).coordinator.tokens;
    expect(shared).toEqual([expect.objectContaining({ day: '2026-11-12', usedToday: usage.usage.day.used, processes: 2 })]);

    // Complete, exact data: both lakes together equal one uninterrupted run of every code
    // (unthrottled, straight to the emulator).
    const whole = minutelessPipelineFile(dir, 'whole', [...CRYPTO, ...OTHERS], 1000);
    ok(await runCli(['run', whole, '--output', join(dir, 'whole'), '--base-url', emulatorUrl, '--token', REPLAY_TOKEN, '--plan', 'replay', '--clock', NOW, ...SPAN, '--quiet']));
    const expected = await lakeRows(join(dir, 'whole'));
    expect(expected.length).toBeGreaterThan(10_000);
    expect(sorted([...(await lakeRows(join(dir, 'a'))), ...(await lakeRows(join(dir, 'b')))])).toEqual(expected);
  }, 60_000);
});

describe('service.timeouts through the CLI', () => {
  it('a bad value is exit 2 with the file, line and column, before anything runs', async () => {
    const file = join(tempDir('ql-timeouts-'), 'p.yaml');
    writeFileSync(file, readFileSync(minutelessPipelineFile(dirname(file), 'p', ['BTCUSDT'], 1000), 'utf8').replace('headersMs: 1000', 'headersMs: 50').replace('bodyMs: 1000', 'bodyMs: 1s'));
    for (const command of [['validate', file], ['run', file, '--dry-run']]) {
      const r = await runCli(command);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file}:7:16: service.timeouts.headersMs: 50 must be at least 100`);
      expect(r.stderr).toContain(`${file}:8:13: service.timeouts.bodyMs: expected a number, got string "1s"`);
    }
  });
});
