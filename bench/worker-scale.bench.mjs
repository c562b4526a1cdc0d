/**
 * Issue 17 scenarios (a), (b) and (e) as figures: BUILT `quotelake worker` processes draining one queue
 * against ONE emulator (`quotelake serve --clock NOW --clock-runs` as a child process, as a user
 * would start it; its clock starts at NOW and runs), with the Redis
 * coordinator (Debian's redis-server on a free loopback port, marked long-running: no restart
 * guard, see src/api/redis/redis-scripts.ts), measured at the service itself: the emulator's log of
 * each token's admitted arrivals and 429s, as its limits saw them (GET /_emulator/arrivals; every
 * case runs on tokens of its own, so each token's log is one case).
 *
 * Workers run as a fleet does: started before the work is queued (`enqueue`), stopped (SIGTERM)
 * once the queue has completed it; QUOTELAKE_BENCH_SCALE_WORKERS=batch starts `worker --until-empty`
 * processes after the work is queued instead, so their own start counts too.
 *
 * - (a) 3 workers on one professional token: the plan's utilisation and the 429s.
 * - (b) two `quotelake run` processes of different pipelines on one professional token: the same.
 * - (e) 2 workers on one token, then 2 workers sharing a pool of two tokens (each worker holds
 *   both): each token's utilisation, and the throughput ratio of two tokens over one. The plan is a
 *   custom one of 5 requests a second, so the figure is bound by the plan, not by this machine's
 *   CPU (two professional tokens' 40 requests a second are more than a shared two-core machine
 *   writes Parquet for, with four processes on it).
 *
 * Utilisation = the least time the plan lets the case's arrivals take / the time they took, first
 * to last (bench/plan-utilisation.mjs). It counts the run's start (the first burst spread while the
 * slices open) and every late turn of the window against it.
 * Mean fill = how many of the plan's requests the sliding one-second window holds on average,
 * from the end of the first window to the last arrival, over the plan's limit.
 * Throughput = arrivals / (time from first to last arrival).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { warmEmulator } from './backfill/emulator-process.mjs';
import { planUtilisation } from './plan-utilisation.mjs';
import { startRedis } from './redis-server.mjs';

const { Redis } = createRequire(import.meta.url)('ioredis');
const MAIN = fileURLToPath(new URL('../dist/cli/quotelake.js', import.meta.url));
const NOW = '2026-11-20T12:00:00Z';
const SLOW = { name: 'bench-5rps', base: 'professional', perSecond: 5, perMinute: 300 };
const POOL = ['bench-scale-token-1', 'bench-scale-token-2', 'bench-scale-token-3'];
// Scenario (b)'s token: professional, never used by another case (its windows start empty).
const RUNS_TOKEN = 'bench-scale-runs';
const CODES = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD', 'USDJPY', 'USOIL', 'Silver', 'SHIBUSDT'];
// Days of the professional-plan cases (a) and (b): 90 days is 1,674 requests, about 84 s at 20 a
// second, so the start (cold processes fill the first second's slots over about 0.2 s, a fixed cost)
// weighs what it does in a real job, little. 30 days (28 s) read 0.978 whole-run for (a) with the
// same steady state (mean fill 0.991); 10 days read lower still.
const PRO_DAYS = Number(process.env.QUOTELAKE_BENCH_SCALE_PRO_DAYS ?? 90);
// Days of the 5 req/s cases (e): 30 days is 558 requests, about 112 s for one token.
const DAYS = Number(process.env.QUOTELAKE_BENCH_SCALE_DAYS ?? 30);
// Slices fetched side by side per worker: those fetched while the lake is busy commit together.
const CONCURRENCY = process.env.QUOTELAKE_BENCH_SCALE_CONCURRENCY ?? '4';
// Workers started before the work is queued and stopped after (a fleet, the default), or started
// after it with --until-empty (a batch: each process's start counts against the run).
const FLEET = process.env.QUOTELAKE_BENCH_SCALE_WORKERS !== 'batch';

/** The emulator's own log of one token's admitted arrival instants and its 429s (GET /_emulator/arrivals). */
async function arrivalsAt(emulatorUrl, token) {
  const answer = await fetch(`${emulatorUrl}/_emulator/arrivals?token=${encodeURIComponent(token)}`);
  const { arrivals } = await answer.json();
  if (arrivals === null) return { times: [], rejected: 0 };
  if (arrivals.dropped > 0) throw new Error(`the emulator dropped ${arrivals.dropped} arrivals of a case`);
  return { times: arrivals.admitted, rejected: arrivals.refused.rate + arrivals.refused.daily };
}

/** Runs the built CLI; resolves with its stdout once it exits with one of `okCodes`. `started` gets the child. */
function cli(args, env, { okCodes = [0], started } = {}) {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('QUOTELAKE_')));
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    started?.(child);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (err += c));
    child.once('error', reject);
    child.once('close', (code) => (okCodes.includes(code) ? resolve(out) : reject(new Error(`quotelake ${args[0]} exited ${code}: ${err.slice(-2000)}`))));
  });
}

/** Polls until `check()` is true (every 50 ms, at most `limitMs`). */
async function waitFor(check, what, limitMs = 600_000) {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(50);
  }
}

/** Enqueues 8 series x `days` days of 1m bars (up to 3 pages a day) into a fresh queue and drains it with `workers` processes. */
async function drain(scratch, redisUrl, baseUrl, workers, env, label, days) {
  const redis = new Redis(redisUrl);
  await redis.flushall();
  const { tokenHash16 } = await import('../dist/api/index.js');
  const { tokenKeys } = await import('../dist/api/redis/index.js');
  for (const t of ['demo-professional', `demo-${SLOW.name}`, RUNS_TOKEN, ...POOL]) await redis.set(tokenKeys(tokenHash16(t)).epoch, '0');
  redis.disconnect();
  const pipeline = join(scratch, 'scaled.yaml');
  const codes = CODES.join(', ');
  await writeFile(pipeline, `name: scaled\nsource:\n  type: kline-history\n  codes: [${codes}]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`);
  // Whole days ending before NOW (a span past the clock's now would be cut short at it).
  const until = '2026-11-19T00:00:00Z';
  const since = new Date(Date.parse(until) - days * 86_400_000).toISOString();
  const all = { ...env, QUOTELAKE_REDIS_URL: redisUrl, QUOTELAKE_BASE_URL: baseUrl };
  const enqueue = async () => {
    const queued = JSON.parse(await cli(['enqueue', pipeline, '--since', since, '--until', until, '--clock', NOW, '--output', join(scratch, label), '--json'], all));
    if (process.env.BENCH_DEBUG) process.stderr.write(`${label}: ${queued.slices} slices, ${queued.requests} requests\n`);
    return queued;
  };
  if (!FLEET) {
    await enqueue();
    await Promise.all(Array.from({ length: workers }, () => cli(['worker', '--until-empty', '--concurrency', CONCURRENCY, '--clock', NOW], all)));
    return;
  }
  // A fleet: the workers run before the work comes (as they do in production: started once, fed by
  // enqueue and schedules), so the measure holds no process start. Stopped by SIGTERM once drained.
  const { Queue } = createRequire(import.meta.url)('bullmq');
  const watch = new Redis(redisUrl);
  const queue = new Queue('slices', { connection: watch, prefix: 'quotelake' });
  const children = [];
  const exits = Array.from({ length: workers }, () =>
    cli(['worker', '--concurrency', CONCURRENCY, '--clock', NOW], all, { okCodes: [0, 130], started: (child) => children.push(child) }),
  );
  try {
    await waitFor(async () => (await queue.getWorkersCount()) >= workers, `${workers} workers on the queue`);
    const queued = await enqueue();
    await waitFor(async () => {
      const { completed, failed } = await queue.getJobCounts('completed', 'failed');
      if (failed > 0) throw new Error(`${failed} slices of case ${label} failed`);
      return completed >= queued.slices;
    }, 'the queue to drain');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.allSettled(exits);
    await queue.close();
    watch.disconnect();
  }
  await Promise.all(exits);
}

/**
 * Scenario (b): two `quotelake run` processes of different pipelines (half the codes each) on one
 * professional token through the coordinator, each into its own lake; their arrivals together.
 */
async function twoRuns(scratch, redisUrl, baseUrl, token) {
  const halves = [CODES.slice(0, CODES.length / 2), CODES.slice(CODES.length / 2)];
  const until = '2026-11-19T00:00:00Z';
  const since = new Date(Date.parse(until) - PRO_DAYS * 86_400_000).toISOString();
  const env = { QUOTELAKE_TOKEN: token, QUOTELAKE_PLAN: 'professional', QUOTELAKE_REDIS_URL: redisUrl, QUOTELAKE_BASE_URL: baseUrl };
  await Promise.all(
    halves.map(async (codes, i) => {
      const pipeline = join(scratch, `half-${i}.yaml`);
      await writeFile(pipeline, `name: half-${i}\nsource:\n  type: kline-history\n  codes: [${codes.join(', ')}]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`);
      return cli(['run', pipeline, '--since', since, '--until', until, '--clock', NOW, '--output', join(scratch, `b-${i}`), '-q'], env);
    }),
  );
}

async function serve(plansFile) {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--clock', NOW, '--clock-runs', '--plans-file', plansFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`quotelake serve exited ${code}: ${err}`)));
    child.stderr.setEncoding('utf8').on('data', (c) => {
      err += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m) resolve(m[1]);
    });
  });
  child.removeAllListeners('exit');
  return { url, stop: () => child.kill('SIGTERM') };
}

/**
 * How full the plan's one-second window is on average, from the end of the first window to the last
 * arrival, sampled every millisecond: 1.0 when every window holds the plan's limit.
 */
function occupancy(times, perSecond) {
  let sum = 0;
  let samples = 0;
  let lo = 0;
  let hi = 0;
  for (let t = times[0] + 1000; t <= times[times.length - 1]; t++) {
    while (hi < times.length && times[hi] <= t) hi++;
    while (lo < times.length && times[lo] <= t - 1000) lo++;
    sum += hi - lo;
    samples++;
  }
  return sum / samples / perSecond;
}

function measure({ times: unsorted, rejected }, perSecond) {
  const times = [...unsorted].sort((a, b) => a - b);
  if (process.env.BENCH_DEBUG) process.stderr.write(`arrivals ${JSON.stringify(times)}\n`);
  const span = (times[times.length - 1] - times[0]) / 1000;
  return {
    utilisation: planUtilisation(times, perSecond),
    occupancy: occupancy(times, perSecond),
    throughput: times.length / span,
    rejected,
  };
}

export async function run() {
  const scratch = await mkdtemp(join(tmpdir(), 'ql-bench-scale-'));
  const redis = await startRedis(scratch);
  const plansFile = join(scratch, 'plans.json');
  // The service's file: the custom plan and the pool's tokens on it (the workers read its plans only).
  await writeFile(plansFile, JSON.stringify({ plans: [SLOW], tokens: [...POOL.map((token) => ({ token, plan: SLOW.name })), { token: RUNS_TOKEN, plan: 'professional' }] }));
  const emulator = await serve(plansFile);
  // A real service is warm: its first pages (JIT, generators) must not count against the workers.
  // On another token, with bars from before every measured span (90 days back from 2026-11-19 is 2026-08-21).
  await warmEmulator(emulator.url, 'demo-premium', CODES, Date.parse('2026-08-01T00:00:00Z') / 1000);
  const r4 = (x) => Number(x.toFixed(4));
  const at = (token) => arrivalsAt(emulator.url, token);
  try {
    await drain(scratch, redis.url, emulator.url, 3, { QUOTELAKE_TOKEN: 'demo-professional', QUOTELAKE_PLAN: 'professional' }, 'a', PRO_DAYS);
    const a = measure(await at('demo-professional'), 20);
    await twoRuns(scratch, redis.url, emulator.url, RUNS_TOKEN);
    const b = measure(await at(RUNS_TOKEN), 20);
    await drain(scratch, redis.url, emulator.url, 2, { QUOTELAKE_TOKEN: POOL[0], QUOTELAKE_PLAN: SLOW.name, QUOTELAKE_PLANS_FILE: plansFile }, 'one', DAYS);
    const one = measure(await at(POOL[0]), SLOW.perSecond);
    await drain(scratch, redis.url, emulator.url, 2, { QUOTELAKE_TOKENS: POOL.slice(1).map((t) => `${t}:${SLOW.name}`).join(','), QUOTELAKE_PLANS_FILE: plansFile }, 'two', DAYS);
    const perTokenArrivals = await Promise.all(POOL.slice(1).map(at));
    const two = measure({ times: perTokenArrivals.flatMap((x) => x.times), rejected: perTokenArrivals.reduce((n, x) => n + x.rejected, 0) }, 2 * SLOW.perSecond);
    const perToken = perTokenArrivals.map((x) => measure(x, SLOW.perSecond));
    if (process.env.BENCH_DEBUG) process.stderr.write(`${JSON.stringify({ a, b, one, two, perToken })}\n`);
    return [
      { name: 'workers: 3 processes, one professional token, utilisation of the plan', value: r4(a.utilisation), unit: 'x plan', target: 0.99 },
      { name: 'workers: 3 processes, one professional token, mean fill of the 1 s window', value: r4(a.occupancy), unit: 'x plan', target: 0.99 },
      { name: 'workers: 3 processes, one professional token, 429 rejections at the service', value: a.rejected, unit: 'requests', target: 0 },
      { name: 'runs: 2 processes of different pipelines, one professional token, utilisation of the plan', value: r4(b.utilisation), unit: 'x plan', target: 0.99 },
      { name: 'runs: 2 processes of different pipelines, one professional token, mean fill of the 1 s window', value: r4(b.occupancy), unit: 'x plan', target: 0.99 },
      { name: 'runs: 2 processes of different pipelines, one professional token, 429 rejections at the service', value: b.rejected, unit: 'requests', target: 0 },
      { name: 'workers: 2 processes, one 5 req/s token, utilisation of the plan', value: r4(one.utilisation), unit: 'x plan', target: 0.99 },
      { name: 'workers: 2 processes x 2 tokens of 5 req/s, least-used token\'s utilisation', value: r4(Math.min(...perToken.map((p) => p.utilisation))), unit: 'x plan', target: 0.99 },
      { name: 'workers: 2 processes x 2 tokens, 429 rejections at the service', value: two.rejected, unit: 'requests', target: 0 },
      { name: 'workers: throughput of 2 tokens over 1 (2 processes each)', value: r4(two.throughput / one.throughput), unit: 'x', target: 2 },
    ];
  } finally {
    emulator.stop();
    redis.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}
