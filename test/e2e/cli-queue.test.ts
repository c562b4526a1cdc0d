/**
 * The queue through the built CLI: a real redis-server on loopback, the built-in emulator of each
 * process on a frozen clock. Slices enqueued twice are queued once; workers drain the queue into a
 * lake equal to an uninterrupted single `quotelake run`; a SIGKILLed worker's slice is redelivered;
 * `queue status --json`; schedules with a time zone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { QUEUE_NAME, QUEUE_PREFIX, sliceQueue } from '../../src/queue/slice-queue.js';
import type { KlineRow } from '../../src/core/records.js';
import { closedPort } from '../helpers/closed-port.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { useS3Server } from '../helpers/s3-server.js';

/** The workers share these tokens' plans through the coordinator; a first run on a long-running Redis. */
const DEMO_TOKENS = ['demo-professional', 'demo-basic', 'demo-tiny'];
import { runCli, startCli, tempDir, type CliResult } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SPAN = ['--since', '2026-11-17T00:00:00Z', '--until', '2026-11-19T06:30:00Z', '--clock', CLOCK];

// Each describe has its own Redis and each process its own emulator: all but the schedules (which
// share one queue) run at once; most of their time is spent waiting on the plans' request rates.

function pipelineFile(codes: readonly string[], intervals: readonly string[]): string {
  const file = join(tempDir('ql-queue-p-'), 'queued.yaml');
  writeFileSync(
    file,
    ['name: queued', 'source:', '  type: kline-history', `  codes: [${codes.join(', ')}]`, `  intervals: [${intervals.join(', ')}]`, 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'),
  );
  return file;
}

function ok(r: CliResult): CliResult {
  expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
  return r;
}

/** Every row of the lake, in one order, exact (decimals as text). */
async function lakeRows(output: string): Promise<KlineRow[]> {
  const rows = await readLakeRecords(output, 'kline', 'parquet');
  return rows
    .map(({ source: _source, ...r }) => r as KlineRow)
    .sort((a, b) => a.code.localeCompare(b.code) || a.interval.localeCompare(b.interval) || a.ts - b.ts);
}

interface Status {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
  eta: { seconds: number; requestsLeft: number; plan: string; requestsPerSecond: number };
}

async function status(env: Record<string, string>, extra: string[] = []): Promise<Status> {
  return JSON.parse(ok(await runCli(['queue', 'status', '--json', ...extra], { env })).stdout) as Status;
}

describe.concurrent('enqueue and queue status', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('enqueueing the same run twice adds its slices once; status --json has the four counts and the ETA', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile(['BTCUSDT', 'EURUSD'], ['1m', '1h']);
    const output = tempDir();
    const first = JSON.parse(ok(await runCli(['enqueue', file, ...SPAN, '--output', output, '--json'], { env })).stdout) as Record<string, number>;
    // 2 intervals x 3 UTC days (17, 18, 19 up to 06:30), both codes in each slice (within 32 requests).
    expect(first).toMatchObject({ slices: 6, added: 6, queued: 0, completed: 0, retried: 0 });
    // Two enqueues of slices all queued already, adding nothing: at once.
    const [againJson, againText] = await Promise.all([
      runCli(['enqueue', file, ...SPAN, '--output', output, '--json'], { env }),
      runCli(['enqueue', file, ...SPAN, '--output', output], { env }),
    ]);
    const second = JSON.parse(ok(againJson).stdout) as Record<string, number>;
    expect(second).toMatchObject({ slices: 6, added: 0, queued: 6 });
    const text = ok(againText).stdout;
    expect(text).toBe(`queued: 6 slices (${first.requests} requests planned): 0 new, 6 already queued, 0 already done\n`);

    // Two reads of the same queue: at once.
    const [s, basic] = await Promise.all([status(env), status(env, ['--plan', 'basic'])]);
    expect(Object.keys(s).sort()).toEqual(['active', 'completed', 'eta', 'failed', 'waiting']);
    expect(s).toMatchObject({ waiting: 6, active: 0, completed: 0, failed: 0 });
    // 1m days: 1440 bars = 3 pages (the 19th to 06:30: 391 bars, 1 page); 1h days: 1 page each.
    expect(s.eta).toEqual({ seconds: Math.ceil(first.requests! / 20), requestsLeft: first.requests, plan: 'professional', requestsPerSecond: 20, quotaResetAt: null });
    expect(first.requests).toBe(2 * (3 + 3 + 1) + 2 * 3);
    // The basic plan sustains 1 request a second.
    expect(basic.eta.seconds).toBe(first.requests);

    // A budget of 3 requests: a full 1m day (3 pages) is a slice alone, the 19th's and the 1h days' pages pair up.
    const [smallRun, bad] = await Promise.all([
      runCli(['enqueue', file, ...SPAN, '--output', tempDir(), '--slice-requests', '3', '--json'], { env }),
      runCli(['enqueue', file, ...SPAN, '--output', output, '--slice-requests', '0'], { env }),
    ]);
    expect(JSON.parse(ok(smallRun).stdout)).toMatchObject({ slices: 2 + 2 + 1 + 3, added: 8, requests: first.requests });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--slice-requests 0');
  }, 60_000);

  it('without a coordinator: a usage error naming the option and the variable', async () => {
    const r = await runCli(['queue', 'status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--coordinator');
    expect(r.stderr).toContain('QUOTELAKE_REDIS_URL');
  });

  it('an unreachable coordinator: named (password hidden), exit 1, for enqueue, worker and status alike', async () => {
    const url = `redis://me:hunter2@127.0.0.1:${await closedPort()}`;
    const commands = [['queue', 'status'], ['worker'], ['enqueue', pipelineFile(['BTCUSDT'], ['1m'])]];
    // Independent processes: run at once.
    for (const r of await Promise.all(commands.map((args) => runCli([...args, '--coordinator', url])))) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('the coordinator redis://me:***@127.0.0.1:');
      expect(r.stderr).not.toContain('hunter2');
    }
  });
});

describe.concurrent('workers', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('3 worker processes drain the queue into the lake an uninterrupted single run writes', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    // Two codes: each slice still holds more than one series, at a third less of the requests of three.
    const file = pipelineFile(['BTCUSDT', 'EURUSD'], ['1m', '1h']);
    // The single run has its own emulator and no coordinator: it runs while the workers drain the queue.
    const single = tempDir();
    const singleRun = runCli(['run', file, ...SPAN, '--output', single, '--quiet']);
    const shared = tempDir();
    ok(await runCli(['enqueue', file, ...SPAN, '--output', shared], { env }));
    const workers = [0, 1, 2].map(() => startCli(['worker', '--until-empty', '--concurrency', '2', '--clock', CLOCK, '--log-level', 'info'], { env }));
    const results = await Promise.all(workers.map((w) => w.result));
    for (const r of results) ok(r);
    ok(await singleRun);
    // Every slice ran once, and the work was spread (more than one worker ran slices).
    const ran = results.map((r) => (r.stderr.match(/slice done:/g) ?? []).length);
    // 2 intervals x 3 days, the two codes together in each.
    expect(ran.reduce((a, b) => a + b, 0)).toBe(6);
    expect(ran.filter((n) => n > 0).length).toBeGreaterThan(1);
    expect(await status(env)).toMatchObject({ waiting: 0, active: 0, completed: 6, failed: 0, eta: { seconds: 0, requestsLeft: 0 } });
    // A drained queue: no ETA in the text form either.
    expect(ok(await runCli(['queue', 'status'], { env })).stdout).toBe('waiting 0, active 0, completed 6, failed 0\nnothing to run\n');
    const expected = await lakeRows(single);
    expect(expected.length).toBeGreaterThan(5000);
    expect(await lakeRows(shared)).toEqual(expected);
  }, 120_000);
});

describe('a relative --output', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('is the enqueuer\'s folder, wherever the worker starts; the same words from another folder are another lake', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile(['BTCUSDT'], ['1h']);
    const [here, elsewhere] = [tempDir(), tempDir()];
    const enqueue = async (cwd: string) => JSON.parse(ok(await runCli(['enqueue', file, ...SPAN, '--output', 'lake', '--json'], { cwd, env })).stdout) as Record<string, number>;
    const first = await enqueue(here);
    expect(first.added).toBeGreaterThan(0);
    ok(await runCli(['worker', '--until-empty', '--clock', CLOCK], { cwd: elsewhere, env }));
    expect(existsSync(join(elsewhere, 'lake'))).toBe(false);
    expect((await lakeRows(join(here, 'lake'))).length).toBe(55); // 17 Nov 00:00 to 19 Nov 06:00, hourly
    // Not "already done": that lake is in the other folder.
    expect(await enqueue(elsewhere)).toMatchObject({ added: first.added, completed: 0 });
  }, 60_000);
});

describe.concurrent('Redis loses its data while workers run', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('a batch worker whose queue vanished (a restart without persistence) does not call it drained: exit 1, and what to do', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile(['BTCUSDT', 'EURUSD'], ['1m', '1h']);
    ok(await runCli(['enqueue', file, ...SPAN, '--output', tempDir()], { env }));
    // The basic plan: a request a second, so the slices take a while; the data goes after the first slice starts.
    const worker = startCli(['worker', '--until-empty', '--concurrency', '1', '--clock', CLOCK, '--plan', 'basic', '--log-level', 'info'], { env });
    const client = new Redis(redis().url);
    try {
      // The worker draws the queue's epoch before it takes a slice.
      await worker.waitForStderr(/slice started/);
      // What a restart without persistence loses of the queue (the limiter's state is kept here: its
      // own loss is held for a minute by the restart guard, tested elsewhere).
      const queueKeys = await client.keys(`${QUEUE_PREFIX}:${QUEUE_NAME}:*`);
      expect(queueKeys.length).toBeGreaterThan(1);
      await client.del(...queueKeys);
    } finally {
      client.disconnect();
    }
    const result = await worker.result;
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('Redis lost its data while this worker ran');
    expect(result.stderr).toContain('Run the same "quotelake enqueue" again');
  }, 120_000);
});

describe.concurrent('workers into a lake on S3', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });
  const s3 = useS3Server();

  it('two workers commit every slice into an s3:// lake (through its storage and lease), with the rows of a single run', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
    const file = pipelineFile(['BTCUSDT', 'EURUSD'], ['1h']);
    const single = tempDir();
    const singleRun = runCli(['run', file, ...SPAN, '--output', single, '--quiet']);
    const lake = 's3://lake-test/queued';
    ok(await runCli(['enqueue', file, ...SPAN, '--output', lake], { env }));
    const workers = [0, 1].map(() => startCli(['worker', '--until-empty', '--concurrency', '2', '--clock', CLOCK, '--s3-endpoint', s3().endpoint], { env }));
    for (const r of await Promise.all(workers.map((w) => w.result))) ok(r);
    ok(await singleRun);
    const inspect = JSON.parse(ok(await runCli(['inspect', lake, '--s3-endpoint', s3().endpoint, '--json'], { env })).stdout) as { datasets: { dataset: string; rows: number; problems: string[] }[] };
    const expected = await lakeRows(single);
    expect(inspect.datasets.map((d) => [d.dataset, d.rows, d.problems])).toEqual([['kline', expected.length, []]]);
  }, 120_000);
});

describe.concurrent('a worker killed mid-slice (scenario c)', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('its slice is redelivered to another worker and the lake equals the single run', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    // The basic plan (1 request a second) makes a 1m day (3 requests) last long enough to kill it inside.
    const file = pipelineFile(['BTCUSDT'], ['1m']);
    const span = ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-19T23:59:00Z', '--clock', CLOCK, '--plan', 'basic'];
    // The single run has its own emulator and no coordinator: it runs alongside the workers.
    const single = tempDir();
    const singleRun = runCli(['run', file, ...span, '--output', single, '--quiet']);
    const shared = tempDir();
    ok(await runCli(['enqueue', file, ...span, '--output', shared], { env }));
    const victim = startCli(['worker', '--clock', CLOCK, '--plan', 'basic', '--stalled-timeout', '2', '--log-level', 'info'], { env });
    await victim.waitForStderr(/slice started/);
    victim.child.kill('SIGKILL');
    const killed = await victim.result;
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stderr).not.toMatch(/slice done/);
    // The killed worker's slice is still "active" (its lock not yet expired): the next worker waits for it.
    const rescuer = ok(await runCli(['worker', '--until-empty', '--clock', CLOCK, '--plan', 'basic', '--stalled-timeout', '2', '--log-level', 'info'], { env }));
    expect((rescuer.stderr.match(/slice done:/g) ?? []).length).toBe(2);
    expect(await status(env)).toMatchObject({ waiting: 0, active: 0, completed: 2, failed: 0 });
    ok(await singleRun);
    const expected = await lakeRows(single);
    expect(expected.length).toBe(2 * 1440);
    expect(await lakeRows(shared)).toEqual(expected);
  }, 120_000);
});

describe.concurrent('a worker stopped by SIGTERM', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('SIGTERM: the worker takes no new slice, finishes or puts back its own, and exits 130', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile(['ETHUSDT'], ['1m']);
    const span = ['--since', '2026-11-15T00:00:00Z', '--until', '2026-11-16T23:59:00Z', '--clock', CLOCK, '--plan', 'basic'];
    ok(await runCli(['enqueue', file, ...span, '--output', tempDir()], { env }));
    const worker = startCli(['worker', '--concurrency', '1', '--clock', CLOCK, '--plan', 'basic', '--log-level', 'info', '--stop-timeout', '20'], { env });
    await worker.waitForStderr(/slice started/);
    worker.child.kill('SIGTERM');
    const r = await worker.result;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('quotelake worker: SIGTERM: taking no new slice');
    // One slice ran (finished, or put back whole); the other was never taken.
    const s = await status(env);
    expect(s.active).toBe(0);
    expect(s.waiting + s.completed).toBe(2);
    expect(s.waiting).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

/**
 * Two full days of 1m bars of one code queued (3 requests each, 6 in all) for workers on a plan of
 * 4 requests a day: the worker arguments that put them on it, and the output.
 */
async function queuedOverQuota(env: Record<string, string>): Promise<{ workerArgs: string[]; output: string }> {
  const plans = join(tempDir('ql-queue-plans-'), 'plans.yaml');
  writeFileSync(plans, 'plans:\n  - name: tiny\n    base: professional\n    perDay: 4\n');
  const output = tempDir();
  ok(await runCli(['enqueue', pipelineFile(['BTCUSDT'], ['1m']), '--since', '2026-11-18T00:00:00Z', '--until', '2026-11-19T23:59:00Z', '--clock', CLOCK, '--output', output], { env }));
  // One slice at a time: the day's 4 requests go to the first slice (3) and the second (1), in queue order.
  return { workerArgs: ['--concurrency', '1', '--clock', CLOCK, '--plans-file', plans, '--plan', 'tiny', '--log-level', 'info'], output };
}

/** After the quota: one slice done, one waiting for the reset, the lake holding the first day and part of the second. */
async function expectStoppedAtQuota(env: Record<string, string>, stderr: string, output: string): Promise<void> {
  expect(stderr).toMatch(/slice done: BTCUSDT 1m \S+: 1440 rows, 3 requests/);
  expect(await status(env)).toMatchObject({ waiting: 1, active: 0, completed: 1, failed: 0 });
  const held = await lakeRows(output);
  expect(held.length).toBeGreaterThan(1440);
  expect(held.length).toBeLessThan(2880);
}

describe.concurrent('the daily quota', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('a slice that meets it commits what it fetched and waits on the queue for the reset', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const { workerArgs, output } = await queuedOverQuota(env);
    const worker = startCli(['worker', ...workerArgs, '--stop-timeout', '20'], { env });
    // The reset is the next UTC midnight of the frozen clock: 12 hours on.
    await worker.waitForStderr(/slice waits for the daily quota: BTCUSDT 1m \S+: \d+ rows committed; it runs again in 720 min/);
    worker.child.kill('SIGTERM');
    expect((await worker.result).code).toBe(130);
    await expectStoppedAtQuota(env, worker.stderr(), output);
  }, 60_000);
});

describe.concurrent('the daily quota with --until-empty', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('the batch ends at the quota: exit 75, the waiting slices and the reset named, what was fetched committed', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const { workerArgs, output } = await queuedOverQuota(env);
    const r = await runCli(['worker', '--until-empty', ...workerArgs], { env });
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toContain(
      'quotelake worker: the daily quota is used up; 1 slice waits on the queue for its reset at 2026-11-21T00:00:00.000Z: run the worker again after it (what was fetched is committed)',
    );
    await expectStoppedAtQuota(env, r.stderr, output);
    // Its ETA starts at the reset, 12 hours on, not now.
    const status = JSON.parse(ok(await runCli(['queue', 'status', '--json', '--clock', CLOCK], { env })).stdout) as Status & { eta: { quotaResetAt: string | null } };
    expect(status).toMatchObject({ waiting: 1, active: 0 });
    expect(status.eta.quotaResetAt).toBe('2026-11-21T00:00:00.000Z');
    expect(status.eta.seconds).toBe(43_200 + Math.ceil(status.eta.requestsLeft / status.eta.requestsPerSecond));
    const text = ok(await runCli(['queue', 'status', '--clock', CLOCK], { env })).stdout;
    expect(text).toMatch(/^ETA 12 h 0 min: \d+ requests left at the professional plan's 20 requests\/s, after the daily quota's reset at 2026-11-21T00:00:00.000Z \(in 12 h 0 min\): a worker met it, so nothing runs before$/m);
  }, 60_000);
});

describe.concurrent('the daily quota met by another worker, with --until-empty', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('a worker that never met it ends its batch at once: exit 75, the reset named', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const { workerArgs, output } = await queuedOverQuota(env);
    const first = startCli(['worker', ...workerArgs, '--stop-timeout', '20'], { env });
    await first.waitForStderr(/slice waits for the daily quota/);
    first.child.kill('SIGTERM');
    expect((await first.result).code).toBe(130);
    // Nothing left to run until the reset, 12 hours on: the second worker runs no slice and says why.
    const second = await runCli(['worker', '--until-empty', ...workerArgs], { env });
    expect(second.code, second.stderr).toBe(75);
    expect(second.stderr).not.toMatch(/slice started/);
    expect(second.stderr).toContain('quotelake worker: the daily quota is used up; 1 slice waits on the queue for its reset at 2026-11-21T00:00:00.000Z');
    await expectStoppedAtQuota(env, first.stderr(), output);
  }, 60_000);
});

describe('schedules', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('a cron schedule in Europe/London: next firings across the DST change, listed and removed', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile(['BTCUSDT'], ['1m']);
    // British Summer Time starts on Sunday 2026-03-29: 09:00 London is 09:00 UTC before, 08:00 UTC after.
    const at = '2026-03-27T12:00:00Z';
    const made = JSON.parse(
      ok(await runCli(['enqueue', file, '--since', '2d', '--every', '0 9 * * *', '--tz', 'Europe/London', '--name', 'nightly', '--clock', at, '--json'], { env })).stdout,
    ) as { schedule: { name: string; cron: string; tz: string; next: string[] } };
    expect(made.schedule).toEqual({ name: 'nightly', cron: '0 9 * * *', tz: 'Europe/London', next: ['2026-03-28T09:00:00.000Z', '2026-03-29T08:00:00.000Z', '2026-03-30T08:00:00.000Z'] });
    const listed = JSON.parse(ok(await runCli(['queue', 'schedules', '--json', '--clock', '2026-10-24T06:00:00Z'], { env })).stdout) as { schedules: unknown[] };
    // Back to GMT on Sunday 2026-10-25.
    expect(listed.schedules).toEqual([
      { name: 'nightly', cron: '0 9 * * *', tz: 'Europe/London', pipeline: file, file, next: ['2026-10-24T08:00:00.000Z', '2026-10-25T09:00:00.000Z', '2026-10-26T09:00:00.000Z'], overdue: null },
    ]);
    // A schedule's pending firing is not a waiting slice.
    expect((await status(env)).waiting).toBe(0);
    ok(await runCli(['queue', 'unschedule', 'nightly'], { env }));
    expect(ok(await runCli(['queue', 'schedules'], { env })).stdout).toBe('no schedules\n');
    expect((await runCli(['queue', 'unschedule', 'nightly'], { env })).code).toBe(1);
  });

  it('a firing enqueues its run\'s slices (a span resolved at the worker\'s clock) and workers run them', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile(['BTCUSDT'], ['1h']);
    // What BullMQ adds when the schedule fires (waiting for a real cron firing would take a day).
    const connection = new Redis(redis().url, { maxRetriesPerRequest: null });
    const queue = sliceQueue(connection);
    await queue.add('schedule', { kind: 'schedule', pipeline: file, since: '2026-11-19T12:00:00Z', output: tempDir() }, { removeOnComplete: true });
    await queue.close();
    connection.disconnect();
    const worker = ok(await runCli(['worker', '--until-empty', '--clock', CLOCK, '--log-level', 'info'], { env }));
    expect(worker.stderr).toContain('schedule fired: queued: 2 slices, 2 new');
    // 2026-11-19T12:00Z .. now (2026-11-20T12:00Z, the forming bar included): two UTC days.
    expect(worker.stderr).toContain('slice done: BTCUSDT 1h interval=1h/year=2026/date=2026-11-19: 12 rows');
    expect(worker.stderr).toContain('slice done: BTCUSDT 1h interval=1h/year=2026/date=2026-11-20: 13 rows');
    // The two slices; the firing itself is not one.
    expect(await status(env)).toMatchObject({ waiting: 0, active: 0, completed: 2, failed: 0 });
  }, 60_000);

  it('a bad cron pattern is a usage error', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const r = await runCli(['enqueue', pipelineFile(['BTCUSDT'], ['1m']), '--every', '61 * * * *', '--clock', CLOCK], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--every');
  });

  it('an NDJSON sink is not queued: slices would write to each worker\'s stdout, or race on one file', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    // --format does not offer it; a pipeline whose own sink is ndjson is refused with the reason.
    const flag = await runCli(['enqueue', pipelineFile(['BTCUSDT'], ['1m']), '--format', 'ndjson', '--since', '1d', '--clock', CLOCK], { env });
    expect(flag.code, flag.stderr).toBe(2);
    expect(flag.stderr).toMatch(/Invalid values:[\s\S]*format[\s\S]*"ndjson"[\s\S]*Choices: "parquet", "arrow"/);
    const file = pipelineFile(['BTCUSDT'], ['1m']);
    writeFileSync(file, readFileSync(file, 'utf8').replace('type: parquet', 'type: ndjson'));
    const r = await runCli(['enqueue', file, '--since', '1d', '--clock', CLOCK], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('its sink is ndjson, which would write to the stdout of whichever worker runs a slice');
    expect(r.stderr).toContain('hint: queue it with a lake sink (--format parquet or --format arrow)');
  });

  it('an unknown --tz and a --name that is not a plain word are usage errors, before any connection', async () => {
    // Nothing listens there: the words are checked first.
    const env = { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:9' };
    const file = pipelineFile(['BTCUSDT'], ['1m']);
    const tz = await runCli(['enqueue', file, '--every', '0 2 * * *', '--tz', 'Mars/Olympus'], { env });
    expect([tz.code, tz.stderr.split('\n')[0]]).toEqual([2, 'quotelake: --tz "Mars/Olympus" is not a known IANA time zone']);
    for (const name of ['', '../x', 'a b']) {
      const r = await runCli(['enqueue', file, '--every', '0 2 * * *', '--name', name], { env });
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, `quotelake: --name ${JSON.stringify(name)}: a schedule name is letters, digits, ".", "_" and "-" (at most 200, starting with a letter or digit)`]);
    }
  });
});

// Its own Redis: the counts of the describe above read the whole queue.
describe('enqueue over a window that reaches past now', () => {
  const redis = useRedisServer({ settled: DEMO_TOKENS });

  it('an until still to come is now: no slice of a day that has not happened (it would be done empty, never queued again)', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile(['BTCUSDT'], ['1h']);
    const enqueue = (span: string[]) => runCli(['enqueue', file, ...span, '--clock', CLOCK, '--output', tempDir(), '--json'], { env });
    const [later, now, ahead] = await Promise.all([enqueue(['--since', '2026-11-19', '--until', '2026-11-25']), enqueue(['--since', '2026-11-19']), enqueue(['--since', '2026-11-22'])]);
    // The 19th whole and the 20th up to the clock (12:00), with or without the later until.
    expect(JSON.parse(ok(later).stdout)).toMatchObject({ slices: 2, added: 2 });
    expect(JSON.parse(ok(now).stdout)).toMatchObject({ slices: 2, added: 2 });
    // A since still to come: nothing queued, and said so.
    expect(JSON.parse(ok(ahead).stdout)).toMatchObject({ slices: 0, added: 0, requests: 0 });
    expect(ahead.stderr).toContain('quotelake: queued: nothing to queue yet: since (2026-11-22 = 2026-11-22T00:00:00Z) is in the future (now 2026-11-20T12:00:00Z)');
  }, 60_000);
});
