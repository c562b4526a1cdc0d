/**
 * `run --coordinator` whose Redis goes away mid-run (a systemd restart, a failover) through the
 * built CLI, against a real redis-server and a served emulator behind a recording proxy. Down for
 * longer than the client's usual retries (about 8 s) but within --coordinator-patience (default
 * 15 s), the run waits, says so at warn, sends nothing while Redis is away and completes with the
 * data an uninterrupted run fetches. Down for longer than the patience, it stops (exit 1) soon
 * after the patience, not a retry budget later.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { settleTokens, startRedisServer, type RedisTestServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir, type CliProcess, type CliResult } from './helpers/cli.js';
import { minutelessPipelineFile, REPLAY_TOKEN, serveMinuteless, type ServedMinuteless } from './helpers/minuteless-plan.js';
import type { RecordingProxy } from './helpers/recording-proxy.js';
import { events } from './helpers/log-events.js';

const NOW = '2026-11-12T15:00:00Z';
const TOKEN = 'patience-token';
const CODES = ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT', 'EURUSD', 'GOLD', 'Silver', 'USDJPY'];
const SPAN = ['--since', '2026-11-07T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];
/** Requests the service has seen when Redis goes away (of about 75). */
const DOWN_AFTER = 20;
/** Longer than the client's retries of a lost coordinator (at most about 8 s), shorter than the default patience (15 s). */
const DOWN_MS = 9000;

type Row = { code: string; ts: number };

async function lakeRows(output: string): Promise<Row[]> {
  const rows = (await readLakeRecords(output, 'kline', 'parquet')).map(({ source: _source, ...r }) => r as Row);
  return rows.sort((a, b) => a.code.localeCompare(b.code) || a.ts - b.ts);
}

describe('run --coordinator while its Redis goes away', () => {
  let redis: RedisTestServer;
  let served: ServedMinuteless;
  let emulatorUrl: string;
  let proxy: RecordingProxy;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('ql-patience-');
    redis = await startRedisServer();
    served = await serveMinuteless(dir, TOKEN, NOW);
    ({ emulatorUrl, proxy } = served);
  });
  afterAll(async () => {
    await served?.stop();
    await redis?.stop();
  });

  /** A run of the pipeline through the proxy, its Redis killed once the service has seen DOWN_AFTER requests. */
  async function runUntilRedisKilled(name: string, extra: readonly string[]): Promise<{ run: CliProcess; killedAt: number; seenBefore: number }> {
    // A Redis that has coordinated this token for long: the run is not held at its start.
    await settleTokens(redis.url, [TOKEN]);
    const start = proxy.arrivals.length;
    const run = startCli(['run', minutelessPipelineFile(dir, name, CODES, 1000), '--output', join(dir, name), '--base-url', proxy.url, '--token', TOKEN, '--coordinator', redis.url, '--clock', NOW, ...SPAN, '--json', '--log-format', 'json', ...extra]);
    while (proxy.arrivals.length - start < DOWN_AFTER) {
      const early = await Promise.race([run.result, sleep(20)]);
      if (early) throw new Error(`the run ended before Redis went away:\n${(early as CliResult).stderr}`);
    }
    const killedAt = Date.now();
    await redis.kill();
    return { run, killedAt, seenBefore: proxy.arrivals.length };
  }

  it('down for longer than the usual retries, within the patience: the run waits, sends nothing meanwhile and completes', async () => {
    const { run, killedAt } = await runUntilRedisKilled('restarted', []);
    await sleep(DOWN_MS);
    await redis.restart();
    const backAt = Date.now();
    const r = await run.result;
    expect(r.code, r.stderr).toBe(0);

    // Said at warn, once when it began (with the patience) and once when Redis answered again.
    const waited = events(r.stderr, 'coordinator-wait');
    expect(waited).toEqual([expect.objectContaining({ level: 'warn', waitMs: 15_000, coordinator: redis.url })]);
    expect(String(waited[0]!.msg)).toContain(`the coordinator ${redis.url} is unreachable`);
    const back = events(r.stderr, 'coordinator-back');
    expect(back).toEqual([expect.objectContaining({ level: 'warn', coordinator: redis.url })]);
    expect(Number(back[0]!.waitMs)).toBeGreaterThanOrEqual(DOWN_MS - 1000);
    // Nothing admitted without Redis: what went out after the kill (beyond what was admitted just
    // before it, landing within the 1 s connect timeout) waited for Redis and the restart guard's lease.
    const later = proxy.arrivals.filter((a) => a.at >= killedAt + 1000).map((a) => a.at);
    expect(later.length).toBeGreaterThan(20);
    expect(Math.min(...later)).toBeGreaterThanOrEqual(backAt);
    expect(proxy.arrivals.filter((a) => a.rateLimited)).toEqual([]);

    // Complete, exact data: what an uninterrupted, unthrottled run of the same codes fetches.
    const whole = join(dir, 'whole');
    const reference = await runCli(['run', minutelessPipelineFile(dir, 'whole', CODES, 1000), '--output', whole, '--base-url', emulatorUrl, '--token', REPLAY_TOKEN, '--plan', 'replay', '--clock', NOW, ...SPAN, '--quiet']);
    expect(reference.code, reference.stderr).toBe(0);
    const expected = await lakeRows(whole);
    expect(expected.length).toBeGreaterThan(10_000);
    expect(await lakeRows(join(dir, 'restarted'))).toEqual(expected);
  }, 90_000);

  it('down for longer than --coordinator-patience: exit 1 with QL_COORDINATOR_DOWN soon after the patience, nothing sent meanwhile', async () => {
    const { run, killedAt, seenBefore } = await runUntilRedisKilled('lost', ['--coordinator-patience', '2']);
    const r = await run.result;
    const tookMs = Date.now() - killedAt;
    await redis.restart();
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ command: 'run', exitCode: 1, runs: [{ status: 'failed', error: { code: 'QL_COORDINATOR_DOWN' } }] });
    expect(events(r.stderr, 'coordinator-wait')).toEqual([expect.objectContaining({ level: 'warn', waitMs: 2000 })]);
    // The patience, then no retry budget on top (about 8 s more before).
    expect(tookMs).toBeGreaterThanOrEqual(2000);
    expect(tookMs).toBeLessThan(6000);
    // Only what was admitted before the kill reached the service.
    expect(proxy.arrivals.filter((a) => a.at >= killedAt + 1000)).toEqual([]);
    expect(proxy.arrivals.length - seenBefore).toBeLessThanOrEqual(20);
  }, 60_000);

  it('--coordinator-patience without a coordinator is exit 2: there is no Redis to wait for', async () => {
    const r = await runCli(['run', minutelessPipelineFile(dir, 'alone', CODES, 1000), '--coordinator-patience', '5', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('quotelake: --coordinator-patience goes with --coordinator (or QUOTELAKE_REDIS_URL): without a coordinator there is no Redis to wait for');
    const bad = await runCli(['run', minutelessPipelineFile(dir, 'alone', CODES, 1000), '--coordinator', redis.url, '--coordinator-patience', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--coordinator-patience 0: must be a positive number of seconds');
  });
});
