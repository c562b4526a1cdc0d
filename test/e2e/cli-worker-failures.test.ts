/**
 * How a worker fails, through the built CLI with a real redis-server on loopback: a slice that no
 * retry can mend fails at once and `worker --until-empty` exits non-zero after draining (a drained
 * queue that did not deliver everything never exits 0); a pipeline's `service.timeouts` hold for
 * the slices a worker runs (against `quotelake serve` whose answers come 3 s late); a worker whose
 * token is on a lower plan than the one it paces to says so when it ends.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleTokens, startRedisServer, type RedisTestServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SPAN = ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-19T00:00:00Z', '--clock', CLOCK];
const SLOW_TOKEN = 'slow-answers-token';
const BASIC_TOKEN = 'basic-plan-token';

/** One code of 1h bars; `service` lines go under `service:`. */
function pipelineFile(service: readonly string[] = []): string {
  const file = join(tempDir('ql-wfail-p-'), 'failing.yaml');
  const lines = ['name: failing', ...(service.length > 0 ? ['service:', ...service] : []), 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''];
  writeFileSync(file, lines.join('\n'));
  return file;
}

const REFUSED_TOKEN = 'no-such-token-SECRET';
const SETTLED = ['demo-professional', SLOW_TOKEN, BASIC_TOKEN, REFUSED_TOKEN];

/**
 * Each test counts its queue from empty: a Redis of its own (settled as a long-running one), so the
 * tests run at once; most of their time is spent waiting on workers, late answers and the plans' rates.
 */
async function withRedis(use: (redis: RedisTestServer) => Promise<void>): Promise<void> {
  const redis = await startRedisServer();
  try {
    await settleTokens(redis.url, SETTLED);
    await use(redis);
  } finally {
    await redis.stop();
  }
}

describe.concurrent('a worker whose slices fail', () => {
  let served: ServedEmulator;

  beforeAll(async () => {
    served = await serveChild([{ token: SLOW_TOKEN, plan: 'professional', faults: 'latency=3s@1' }], ['--clock', CLOCK]);
  });
  afterAll(async () => {
    await served.stop();
  });

  it('a slice no retry can mend fails at once; --until-empty drains the queue, says so and exits 2', () =>
    withRedis(async (redis) => {
      const env = { QUOTELAKE_REDIS_URL: redis.url };
      const file = pipelineFile();
      const queued = await runCli(['enqueue', file, ...SPAN, '--output', tempDir(), '--json'], { env });
      expect(queued.code, queued.stderr).toBe(0);
      // The 18th, and the 19th's first bar (the span's end is inclusive).
      expect(JSON.parse(queued.stdout)).toMatchObject({ slices: 2, added: 2 });
      // The pipeline file, which every worker reads alike, broken since: every attempt meets it.
      writeFileSync(file, readFileSync(file, 'utf8').replace('codes: [BTCUSDT]', 'codes: [NOSUCH.US]'));

      const textfile = join(tempDir('ql-wfail-m-'), 'worker.prom');
      const r = await runCli(['worker', '--until-empty', '--clock', CLOCK, '--metrics-textfile', textfile], { env });
      expect(r.code, r.stderr).toBe(2);
      // Each failed slice is in the slice histogram, as failed: a dashboard sees the failures.
      expect(readFileSync(textfile, 'utf8')).toContain('quotelake_slice_duration_seconds_count{pipeline="failing",status="failed"} 2\n');
      expect(r.stderr.match(/slice slice-[0-9a-f]+ failed for good \(retrying cannot mend it\): .*unknown product code "NOSUCH.US"/g)).toHaveLength(2);
      expect(r.stderr).not.toContain('retried later');
      expect(r.stderr).toContain('quotelake worker: 2 slices failed for good (the lines above say why); "quotelake queue status" counts them');
      const status = JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
      expect(status).toMatchObject({ waiting: 0, active: 0, completed: 0, failed: 2 });
      // No ETA for work no worker is doing.
      expect((await runCli(['queue', 'status'], { env })).stdout).toBe(
        "waiting 0, active 0, completed 0, failed 2\nnothing to run: the 2 requests left are the failed slices' (enqueue the same run again to retry them)\n",
      );
    }), 60_000);

  it("a worker whose own settings cannot run slices stops (exit 2) and leaves them on the queue for another worker, not failed", () =>
    withRedis(async (redis) => {
      const env = { QUOTELAKE_REDIS_URL: redis.url };
      const output = tempDir();
      const queued = await runCli(['enqueue', pipelineFile(), ...SPAN, '--output', output, '--json'], { env });
      expect(queued.code, queued.stderr).toBe(0);
      expect(JSON.parse(queued.stdout)).toMatchObject({ slices: 2, added: 2 });
      // A token and no base URL: this worker's mistake, which another worker need not share.
      const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env: { ...env, QUOTELAKE_TOKEN: 'demo-professional', QUOTELAKE_PLAN: 'professional' } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('quotelake: worker stopped: a token is set but no base URL: quotelake has no default service address; the slice went back to the queue, for this worker once mended or another one');
      expect(r.stderr).not.toContain('failed for good');
      expect(JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout)).toMatchObject({ waiting: 2, active: 0, failed: 0 });
      // A worker that can run them does.
      const good = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
      expect(good.code, good.stderr).toBe(0);
      expect(JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout)).toMatchObject({ waiting: 0, completed: 2, failed: 0 });
    }), 60_000);

  it('a token the service refuses stops that worker (its slices back on the queue), never fails them for good', () =>
    withRedis(async (redis) => {
      const env = { QUOTELAKE_REDIS_URL: redis.url, QUOTELAKE_BASE_URL: served.url, QUOTELAKE_TOKEN: REFUSED_TOKEN, QUOTELAKE_PLAN: 'professional' };
      const queued = await runCli(['enqueue', pipelineFile(), ...SPAN, '--output', tempDir(), '--json'], { env });
      expect(queued.code, queued.stderr).toBe(0);
      const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toMatch(/quotelake: worker stopped: .*token.*; the slice went back to the queue/);
      expect(r.stderr).not.toContain('failed for good');
      expect(r.stderr).not.toContain(REFUSED_TOKEN);
      expect(JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout)).toMatchObject({ waiting: 2, active: 0, failed: 0 });
    }), 60_000);

  it("the pipeline's service.timeouts hold for a worker's slices: an answer 3 s late is a headers timeout at 400 ms", () =>
    withRedis(async (redis) => {
      const env = { QUOTELAKE_REDIS_URL: redis.url, QUOTELAKE_BASE_URL: served.url, QUOTELAKE_TOKEN: SLOW_TOKEN, QUOTELAKE_PLAN: 'professional' };
      const file = pipelineFile(['  timeouts:', '    headersMs: 400']);
      const queued = await runCli(['enqueue', file, ...SPAN, '--output', tempDir(), '--json'], { env });
      expect(queued.code, queued.stderr).toBe(0);
      const worker = startCli(['worker', '--clock', CLOCK, '--log-level', 'info', '--log-format', 'json'], { env });
      // Under the default 30 s the answer would arrive after 3 s and be taken; with 400 ms it times out and is retried.
      await worker.waitForStderr(/"event":"retry".*UND_ERR_HEADERS_TIMEOUT/);
      worker.child.kill('SIGTERM');
      const r = await worker.result;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).not.toContain(SLOW_TOKEN);
    }), 60_000);

  it('a basic token paced as professional: the slices complete, and the worker ends with a warning naming the plan', () =>
    withRedis(async (redis) => {
      const basic = await serveChild([{ token: BASIC_TOKEN, plan: 'basic' }], ['--clock', CLOCK, '--clock-runs']);
      try {
        const env = { QUOTELAKE_REDIS_URL: redis.url, QUOTELAKE_BASE_URL: basic.url, QUOTELAKE_TOKEN: BASIC_TOKEN, QUOTELAKE_PLAN: 'professional' };
        const file = join(tempDir('ql-wfail-p-'), 'lower-plan.yaml');
        writeFileSync(file, ['name: lower-plan', 'source:', '  type: kline-history', '  codes: [BTCUSDT, ETHUSDT, EURUSD, GOLD]', '  intervals: [1h]', '  concurrency: 4', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
        const queued = await runCli(['enqueue', file, ...SPAN, '--output', tempDir(), '--json'], { env });
        expect(queued.code, queued.stderr).toBe(0);
        const r = await runCli(['worker', '--until-empty', '--clock', CLOCK, '--log-format', 'json'], { env });
        expect(r.code, r.stderr).toBe(0);
        const warning = r.stderr
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { level: string; event?: string; msg: string })
          .find((l) => l.event === 'rate-limited-plan');
        expect(warning).toMatchObject({ level: 'warn' });
        expect(warning!.msg).toMatch(/^the service refused \d+ of \d+ answered requests with 429 \(rate limit\) although they kept to the professional plan's limits; .* set service\.plan or --plan to it; /);
        expect(r.stderr).not.toContain(BASIC_TOKEN);
      } finally {
        await basic.stop();
      }
    }), 60_000);
});
