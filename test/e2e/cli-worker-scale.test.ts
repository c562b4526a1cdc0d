/**
 * Issue 17 scenarios (a) and (e) through the built CLI: worker processes against ONE emulator
 * (`quotelake serve` as a child, on a frozen clock), with the Redis coordinator, measured at the
 * service's door (a counting proxy before the emulator). (a) 3 workers on one professional token:
 * no 429 and every window within the plan. (e) two tokens x two workers (a pool of two in each):
 * each token inside its own plan, both tokens used, each worker's log naming each token's use.
 * Utilisation is a bench figure (bench/worker-scale.bench.mjs): tests never assert on time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash16 } from '../../src/api/index.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { windowViolations } from '../helpers/sliding-window-oracle.js';
import { runCli, startCli, tempDir, type CliResult } from './helpers/cli.js';
import { startCountingProxy, type Arrival, type CountingProxy } from './helpers/counting-proxy.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const CLOCK = '2026-11-20T12:00:00Z';
const POOL = ['scale-token-a', 'scale-token-b'];
// 4 codes x 6 UTC days of 1m bars (and the 16th up to its first minute): slices of one series, 3 pages each.
const CODES = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD'];
const SPAN = ['--since', '2026-11-10T00:00:00Z', '--until', '2026-11-16T00:00:00Z', '--clock', CLOCK];

function pipelineFile(): string {
  const file = join(tempDir('ql-scale-p-'), 'scaled.yaml');
  writeFileSync(
    file,
    ['name: scaled', 'source:', '  type: kline-history', `  codes: [${CODES.join(', ')}]`, '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'),
  );
  return file;
}

function ok(r: CliResult): CliResult {
  expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
  return r;
}

/** Requests the service answered 429 (a rate-limit answer, not the daily cap's). */
function rejected(log: readonly Arrival[]): Arrival[] {
  return log.filter((a) => a.status === 429 || a.ret === 429);
}

/** Requests above the professional plan's 20 a second and 1,200 a minute, as the service saw them. */
function overPlan(log: readonly Arrival[]) {
  const times = log.map((a) => a.at).sort((a, b) => a - b);
  return { second: windowViolations(times, 20, 1000), minute: windowViolations(times, 1200, 60_000) };
}

describe('workers against one emulator, through the coordinator', () => {
  const redis = useRedisServer({ settled: ['demo-professional', ...POOL] });
  let served: ServedEmulator;
  let proxy: CountingProxy;

  beforeAll(async () => {
    served = await serveChild(POOL.map((token) => ({ token, plan: 'professional' })), ['--clock', CLOCK, '--clock-runs']);
    proxy = await startCountingProxy(served.url);
  });
  afterAll(async () => {
    await proxy.close();
    await served.stop();
  });

  async function drain(workers: number, env: Record<string, string>, firstExtra: string[] = []): Promise<{ planned: number; logs: string[] }> {
    const all = { ...env, QUOTELAKE_REDIS_URL: redis().url, QUOTELAKE_BASE_URL: proxy.url };
    // One series a slice (a 1m day is 3 requests): many slices, so the pool's placement is seen.
    const queued = JSON.parse(ok(await runCli(['enqueue', pipelineFile(), ...SPAN, '--output', tempDir(), '--slice-requests', '3', '--json'], { env: all })).stdout) as { slices: number; requests: number };
    // (Weekend days of forex and metals are shorter, and pair up.)
    expect(queued.slices).toBeGreaterThanOrEqual(CODES.length * 5);
    proxy.log.length = 0;
    const procs = Array.from({ length: workers }, (_, i) =>
      startCli(['worker', '--until-empty', '--concurrency', '2', '--clock', CLOCK, '--log-level', 'info', ...(i === 0 ? firstExtra : [])], { env: all }),
    );
    // A worker that never drains (e.g. a service whose windows never pass) fails with its log, not a timeout.
    const timer = setTimeout(() => procs.forEach((p) => p.child.kill('SIGKILL')), 60_000);
    const results = await Promise.all(procs.map((p) => p.result));
    clearTimeout(timer);
    for (const r of results) ok(r);
    return { planned: queued.requests, logs: results.map((r) => r.stderr) };
  }

  it('(a) 3 workers on one professional token: no 429 and every window within the plan at the service', async () => {
    const { planned, logs } = await drain(3, { QUOTELAKE_TOKEN: 'demo-professional', QUOTELAKE_PLAN: 'professional' });
    expect(proxy.log.length).toBe(planned);
    expect(new Set(proxy.log.map((a) => a.token))).toEqual(new Set(['demo-professional']));
    expect(rejected(proxy.log)).toEqual([]);
    expect(overPlan(proxy.log)).toEqual({ second: 0, minute: 0 });
    // The work was spread: more than one process ran slices.
    expect(logs.filter((l) => l.includes('slice done')).length).toBeGreaterThan(1);
    for (const l of logs) expect(l).not.toContain('demo-professional');
  }, 120_000);

  it('(e) two tokens x two workers: each token inside its own plan, both used, each token\'s use in the log', async () => {
    const textfile = join(tempDir('ql-scale-m-'), 'worker.prom');
    const { planned, logs } = await drain(2, { QUOTELAKE_TOKENS: POOL.map((t) => `${t}:professional`).join(',') }, ['--metrics-textfile', textfile]);
    expect(proxy.log.length).toBe(planned);
    for (const token of POOL) {
      const mine = proxy.log.filter((a) => a.token === token);
      // Each worker runs two slices side by side and places them on the token with less work.
      expect(mine.length, token).toBeGreaterThan(planned / 4);
      expect(rejected(mine)).toEqual([]);
      expect(overPlan(mine), token).toEqual({ second: 0, minute: 0 });
    }
    expect(proxy.log.filter((a) => !POOL.includes(a.token))).toEqual([]);
    // The per-token summary of each worker: redacted, with its requests; together they are all the requests.
    let summed = 0;
    for (const l of logs) {
      for (const token of POOL) expect(l).not.toContain(token);
      const lines = [...l.matchAll(/token (\d): \S+ \[[0-9a-f]{8}\] professional: ([\d,]+) requests/g)];
      expect(lines.map((m) => m[1]).sort()).toEqual(['1', '2']);
      summed += lines.reduce((a, m) => a + Number(m[2]!.replace(/,/g, '')), 0);
    }
    expect(summed).toBe(planned);
    // The first worker's metrics: each pool token's quota (labelled by hash), its slices' durations.
    const metrics = readFileSync(textfile, 'utf8');
    for (const token of POOL) expect(metrics).toContain(`quotelake_quota_used_requests{token="${tokenHash16(token)}",plan="professional"}`);
    expect(metrics).toMatch(/quotelake_slice_duration_seconds_count\{pipeline="scaled",status="done"\} [1-9]/);
    // And what its commits made visible, as a run counts it: rows received = written + merged, files.
    const count = (name: string, labels: string) => Number(new RegExp(`^${name}\\{${labels}\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? NaN);
    const received = count('quotelake_rows_total', 'dataset="kline",kind="received"');
    expect(received).toBeGreaterThan(0);
    expect(count('quotelake_rows_total', 'dataset="kline",kind="written"') + (count('quotelake_rows_total', 'dataset="kline",kind="merged"') || 0)).toBe(received);
    expect(count('quotelake_files_committed_total', 'dataset="kline",kind="data"')).toBeGreaterThan(0);
    expect(metrics).not.toContain(POOL[0]);
  }, 120_000);
});

describe('a worker given both a single token and a pool', () => {
  it('is a usage error before it takes any slice (exit 2), the tokens unprinted', async () => {
    const r = await runCli(['worker', '--until-empty'], {
      env: { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:1', QUOTELAKE_TOKEN: 'scale-single-token', QUOTELAKE_TOKENS: `${POOL[0]}:professional` },
    });
    expect(r.stderr).toContain('both a single token (--token or QUOTELAKE_TOKEN) and a token pool (QUOTELAKE_TOKENS) are set');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('scale-single-token');
    expect(r.stderr).not.toContain(POOL[0]);
  });
});
