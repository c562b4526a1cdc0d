/**
 * A `worker` whose Redis restarts mid-slice (systemd, a failover; Redis with persistence, so the
 * queue is kept), through the built CLI against a real redis-server and `quotelake serve`. Its
 * requests wait for Redis as `run --coordinator` does: down for longer than the client's usual
 * retries (about 8 s), within --coordinator-patience (default 15 s), no slice fails (each failure
 * costs one of its queue attempts) and the lake gets every bar. A stop ends such a wait at once.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { settleTokens, startRedisServer, type RedisTestServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';
import { events } from './helpers/log-events.js';

const NOW = '2026-11-20T12:00:00Z';
const TOKEN = 'demo-basic';
/** Four days of 1m bars on the basic plan (1 request a second): 12 requests, about 12 s of work. */
const SPAN = ['--since', '2026-11-14T00:00:00Z', '--until', '2026-11-17T23:59:00Z'];
/** Longer than the client's retries of a lost coordinator (at most about 8 s), shorter than the default patience (15 s). */
const DOWN_MS = 9000;

function pipelineFile(dir: string): string {
  const file = join(dir, 'queued.yaml');
  writeFileSync(file, ['name: queued', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
  return file;
}

describe('a worker whose Redis restarts mid-slice', () => {
  let redis: RedisTestServer;
  let served: CliProcess;
  let serviceUrl: string;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('ql-wrestart-');
    redis = await startRedisServer({ persistent: true });
    served = startCli(['serve', '--port', '0', '--clock', NOW, '--clock-runs']);
    serviceUrl = (await served.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
  });
  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.result;
    await redis?.stop();
  });

  const service = () => ['--base-url', serviceUrl, '--token', TOKEN, '--plan', 'basic', '--clock', NOW];

  async function enqueue(output: string): Promise<void> {
    // A Redis that has coordinated this token for long: no restart guard at the start.
    await settleTokens(redis.url, [TOKEN]);
    const queued = await runCli(['enqueue', pipelineFile(dir), ...SPAN, '--output', output, ...service()], { env: { QUOTELAKE_REDIS_URL: redis.url } });
    expect(queued.code, queued.stderr).toBe(0);
  }

  it('down for longer than the usual retries, within the patience: its requests wait, no slice fails, every bar is written', async () => {
    const output = join(dir, 'lake');
    await enqueue(output);
    const worker = startCli(['worker', '--until-empty', ...service(), '--log-format', 'json', '--log-level', 'info'], { env: { QUOTELAKE_REDIS_URL: redis.url } });
    await worker.waitForStderr(/"event":"slice-start"/);
    await sleep(1500);
    await redis.kill();
    await sleep(DOWN_MS);
    await redis.restart();
    const r = await worker.result;
    expect(r.code, r.stderr).toBe(0);

    // No slice failed (before, each one in flight failed after about 8 s: one queue attempt spent).
    expect(r.stderr).not.toContain('failed (attempt');
    expect(events(r.stderr, 'retry').filter((e) => e.code === 'QL_COORDINATOR_DOWN')).toEqual([]);
    // Said at warn, once when it began (with the patience) and once when Redis answered again.
    const waited = events(r.stderr, 'coordinator-wait');
    expect(waited).toEqual([expect.objectContaining({ level: 'warn', waitMs: 15_000, coordinator: redis.url })]);
    expect(String(waited[0]!.msg)).toContain(`the coordinator ${redis.url} is unreachable`);
    expect(String(waited[0]!.msg)).toContain('waiting up to 15 s for it to come back (--coordinator-patience)');
    const back = events(r.stderr, 'coordinator-back');
    expect(back).toEqual([expect.objectContaining({ level: 'warn', coordinator: redis.url })]);
    expect(Number(back[0]!.waitMs)).toBeGreaterThanOrEqual(DOWN_MS - 1500);

    // Every bar of the four days, once.
    const rows = (await readLakeRecords(output, 'kline', 'parquet')) as { ts: number }[];
    expect(rows.length).toBe(4 * 1440);
    expect(new Set(rows.map((row) => row.ts)).size).toBe(4 * 1440);
  }, 90_000);

  it('a worker run until stopped waits however long; SIGTERM ends the wait at once', async () => {
    await enqueue(join(dir, 'stopped'));
    const worker = startCli(['worker', ...service(), '--stop-timeout', '1', '--log-format', 'json', '--log-level', 'info'], { env: { QUOTELAKE_REDIS_URL: redis.url } });
    await worker.waitForStderr(/"event":"slice-start"/);
    await sleep(1500);
    await redis.kill();
    try {
      await worker.waitForStderr(/"event":"coordinator-wait"/);
      // Past the client's usual retries: still waiting, no slice failed.
      await sleep(DOWN_MS);
      expect(worker.stderr()).not.toContain('failed (attempt');
      const waited = events(worker.stderr(), 'coordinator-wait');
      expect(waited).toEqual([expect.objectContaining({ level: 'warn', coordinator: redis.url })]);
      expect(waited[0]).not.toHaveProperty('waitMs');
      expect(String(waited[0]!.msg)).toContain('waiting for it to come back, however long (until stopped)');
      const stoppedAt = Date.now();
      worker.child.kill('SIGTERM');
      const r = await worker.result;
      // Exit 130, or the stop timeout's SIGINT (the queue's own close waits on the Redis that is gone),
      // within the grace (1 s) and the clean-up's, not after a wait for Redis.
      expect(r.code === 130 || r.signal === 'SIGINT', r.stderr).toBe(true);
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(r.stderr).not.toContain('failed (attempt');
      expect(events(r.stderr, 'slice-released').length).toBeGreaterThan(0);
    } finally {
      worker.child.kill('SIGKILL');
      await redis.restart();
    }
  }, 90_000);
});
