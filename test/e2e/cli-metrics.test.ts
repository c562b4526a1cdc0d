/**
 * Metrics through the built CLI against an emulator child on loopback (issue 17, point 4): the
 * textfile written at the end of a run says what the run's summary says (requests per endpoint,
 * rows per dataset and kind, files and bytes, quota), with faults in the way; `/metrics` is scraped
 * while a run works; the token never appears, only its hash.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi, type TestContext } from 'vitest';
import { tokenHash16 } from '../../src/api/index.js';
import { REQUEST_OUTCOMES } from '../../src/runtime/metrics/index.js';
import { parseExposition, samplesOf, sumBy, valueOf, type Exposition } from '../helpers/prom-text.js';
import { ROOT, runCli, startCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';
import { quickRetry } from './helpers/quick-retry.js';

vi.setConfig({ testTimeout: 120_000 });
const NOW = '2026-11-20T00:00:00Z';
const FIXTURES = join(ROOT, 'test/fixtures/pipelines');

interface Rows {
  received: number;
  written: number;
  merged: number;
  rejected: number;
}
interface Summary {
  pipeline: string;
  status: string;
  durationMs: number;
  requests: Record<string, number>;
  requestsTotal: number;
  rows: Record<string, Rows>;
  files: { count: number; bytes: number; paths: string[] };
  quota: { used: number; limit: number; left: number; resetAt: string };
}

/** An emulator child for one test, stopped when the test ends (the tests run at once). */
async function emulatorFor(onTestFinished: TestContext['onTestFinished'], ...args: Parameters<typeof serveChild>): Promise<ServedEmulator> {
  const emu = await serveChild(...args);
  onTestFinished(() => emu.stop());
  return emu;
}

/** The per-endpoint request counts of the metrics: every outcome but `refused` left the process. */
function sentByEndpoint(e: Exposition): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samplesOf(e, 'quotelake_requests_total')) {
    if (s.labels.outcome === 'refused') continue;
    out[s.labels.endpoint!] = (out[s.labels.endpoint!] ?? 0) + s.value;
  }
  return out;
}

// Each test has its own emulator and token: they run at once (each mostly waits on its processes).
describe.concurrent('--metrics-textfile', () => {
  it('the file written at the end equals the run summary: requests, rows, files, quota, duration; 429s and 5xx counted', async ({ onTestFinished }) => {
    const token = 'tok-metrics-textfile-5f1c2a9e';
    // Spurious 429s and 5xx answers on the way: retried, each attempt counted once by outcome.
    const emu = await emulatorFor(onTestFinished, [{ token, plan: 'professional', faults: '429=0.3,5xx=0.2' }], ['--clock', NOW, '--seed', '7']);
    const out = tempDir();
    const textfile = join(out, 'metrics', 'quotelake.prom');
    // The collector's folder exists, as node_exporter's does (a missing one is refused).
    mkdirSync(dirname(textfile), { recursive: true });
    const r = await runCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT,EURUSD', '--since', '2d', '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json', '--metrics-textfile', textfile],
      { env: { QUOTELAKE_TOKEN: token } },
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = (JSON.parse(r.stdout) as { runs: Summary[] }).runs[0]!;
    const text = readFileSync(textfile, 'utf8');
    const e = parseExposition(text);

    // Requests: what left the process, per endpoint, as the summary counts them.
    expect(summary.requestsTotal).toBeGreaterThan(4);
    expect(sentByEndpoint(e)).toEqual(summary.requests);
    const outcomes = sumBy(e, 'quotelake_requests_total', 'outcome');
    for (const o of Object.keys(outcomes)) expect(REQUEST_OUTCOMES).toContain(o);
    expect(outcomes.rate_limited).toBeGreaterThan(0);
    expect(outcomes.server_error).toBeGreaterThan(0);
    expect(outcomes.ok).toBeGreaterThan(0);
    // The 429 counter says the same as the rate_limited outcome, by endpoint.
    expect(sumBy(e, 'quotelake_rate_limited_total', 'endpoint', { reason: 'window' })).toEqual(
      sumBy(e, 'quotelake_requests_total', 'endpoint', { outcome: 'rate_limited' }),
    );
    // Every attempt sent has its latency observed once.
    expect(sumBy(e, 'quotelake_request_duration_seconds_count', 'endpoint')).toEqual(summary.requests);
    // Every admitted attempt waited (maybe 0 s) once: the histogram counts them all.
    expect(Object.values(sumBy(e, 'quotelake_rate_limiter_wait_seconds_count', 'endpoint')).reduce((a, b) => a + b, 0)).toBe(summary.requestsTotal);

    // Rows by dataset and kind, exactly the summary's (kinds that stayed 0 are absent).
    for (const [dataset, rows] of Object.entries(summary.rows)) {
      for (const kind of ['received', 'written', 'merged', 'rejected'] as const) {
        const found = samplesOf(e, 'quotelake_rows_total', { dataset, kind });
        expect(found.length === 0 ? 0 : found[0]!.value, `${dataset} ${kind}`).toBe(rows[kind]);
      }
    }
    expect(summary.rows.kline!.received).toBeGreaterThan(0);

    // Files and bytes committed.
    expect(summary.files.count).toBeGreaterThan(0);
    expect(valueOf(e, 'quotelake_files_committed_total', { dataset: 'kline', kind: 'data' })).toBe(summary.files.count);
    expect(valueOf(e, 'quotelake_committed_bytes_total', { dataset: 'kline', kind: 'data' })).toBe(summary.files.bytes);

    // Quota of the token, under its hash (the quota file's name), never the token.
    const who = { token: tokenHash16(token), plan: 'professional' };
    expect(valueOf(e, 'quotelake_quota_used_requests', who)).toBe(summary.quota.used);
    expect(valueOf(e, 'quotelake_quota_left_requests', who)).toBe(summary.quota.left);
    expect(valueOf(e, 'quotelake_quota_limit_requests', who)).toBe(summary.quota.limit);
    expect(valueOf(e, 'quotelake_quota_reset_timestamp_seconds', who)).toBe(Date.parse(summary.quota.resetAt) / 1000);

    // The run's duration, once, under its summary status.
    const run = { pipeline: 'kline-backfill', status: 'succeeded' };
    expect(valueOf(e, 'quotelake_run_duration_seconds_count', run)).toBe(1);
    expect(valueOf(e, 'quotelake_run_duration_seconds_sum', run)).toBeCloseTo(summary.durationMs / 1000, 6);

    // Label sets per family, and no process metrics in a textfile.
    const labelSets = new Map<string, Set<string>>();
    for (const s of e.samples) {
      const keys = Object.keys(s.labels).filter((k) => k !== 'le').sort().join(',');
      labelSets.set(s.name.replace(/_(bucket|sum|count)$/, ''), (labelSets.get(s.name.replace(/_(bucket|sum|count)$/, '')) ?? new Set()).add(keys));
    }
    expect(Object.fromEntries([...labelSets].map(([k, v]) => [k, [...v]]))).toEqual({
      quotelake_requests_total: ['endpoint,outcome'],
      quotelake_request_duration_seconds: ['endpoint,outcome'],
      quotelake_rate_limited_total: ['endpoint,reason'],
      quotelake_rate_limiter_wait_seconds: ['endpoint'],
      quotelake_rows_total: ['dataset,kind'],
      quotelake_files_committed_total: ['dataset,kind'],
      quotelake_committed_bytes_total: ['dataset,kind'],
      quotelake_quota_used_requests: ['plan,token'],
      quotelake_quota_left_requests: ['plan,token'],
      quotelake_quota_limit_requests: ['plan,token'],
      quotelake_quota_reset_timestamp_seconds: ['plan,token'],
      quotelake_run_duration_seconds: ['pipeline,status'],
    });
    expect(e.samples.every((s) => s.name.startsWith('quotelake_'))).toBe(true);

    // The token appears nowhere: not in the file, not in the output.
    expect(text).not.toContain(token);
    expect(r.stdout + r.stderr).not.toContain(token);
    // Written atomically: no temp file left beside it.
    expect(readdirSync(dirname(textfile))).toEqual(['quotelake.prom']);
  });

  it('a token pool: the file written at the end holds each token\'s quota, as the summary\'s tokens say', async ({ onTestFinished }) => {
    const tokens = [
      { token: 'tok-metrics-pool-a-3c1d9e', plan: 'professional' },
      { token: 'tok-metrics-pool-b-7a2f4b', plan: 'premium' },
    ];
    const emu = await emulatorFor(onTestFinished, tokens, ['--clock', NOW, '--seed', '7']);
    const out = tempDir();
    const textfile = join(out, 'pool.prom');
    const r = await runCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT,EURUSD', '--since', '1d', '--base-url', emu.url, '--output', out, '--clock', NOW, '--json', '--metrics-textfile', textfile],
      { env: { QUOTELAKE_TOKENS: tokens.map((t) => `${t.token}:${t.plan}`).join(',') } },
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = (JSON.parse(r.stdout) as { runs: (Summary & { tokens: { tokenHash: string; plan: string; quota: { used: number; limit: number; left: number } }[] })[] }).runs[0]!;
    const e = parseExposition(readFileSync(textfile, 'utf8'));
    expect(summary.tokens).toHaveLength(2);
    for (const t of summary.tokens) {
      const who = { token: t.tokenHash, plan: t.plan };
      expect(valueOf(e, 'quotelake_quota_used_requests', who)).toBe(t.quota.used);
      expect(valueOf(e, 'quotelake_quota_left_requests', who)).toBe(t.quota.left);
      expect(valueOf(e, 'quotelake_quota_limit_requests', who)).toBe(t.quota.limit);
    }
    expect(summary.tokens.reduce((a, t) => a + t.quota.used, 0)).toBe(summary.requestsTotal);
  });

  it('a run that fails still writes the file, with the failure status and what was sent', async ({ onTestFinished }) => {
    const token = 'tok-metrics-fail-0b7d3e11';
    // Every answer a 5xx: the run gives up after its retries (a few milliseconds apart).
    const emu = await emulatorFor(onTestFinished, [{ token, plan: 'professional', faults: '5xx=1' }], ['--clock', NOW]);
    const out = tempDir();
    const textfile = join(out, 'q.prom');
    const r = await runCli(
      ['run', quickRetry(join(FIXTURES, 'tiny-trades.yaml')), '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json', '--metrics-textfile', textfile],
      { env: { QUOTELAKE_TOKEN: token } },
    );
    expect(r.code).not.toBe(0);
    const summary = (JSON.parse(r.stdout) as { runs: Summary[] }).runs[0]!;
    const e = parseExposition(readFileSync(textfile, 'utf8'));
    expect(sentByEndpoint(e)).toEqual(summary.requests);
    expect(sumBy(e, 'quotelake_requests_total', 'outcome')).toEqual({ server_error: summary.requestsTotal });
    expect(valueOf(e, 'quotelake_run_duration_seconds_count', { pipeline: 'tiny-trades', status: summary.status })).toBe(1);
    expect(samplesOf(e, 'quotelake_files_committed_total')).toEqual([]);
  });
});

describe.concurrent('--metrics-port', () => {
  it('serves /metrics on loopback while the run works: live counts, process metrics, no token', async ({ onTestFinished }) => {
    const token = 'tok-metrics-scrape-93ab44c0';
    // Slow answers keep the run going long enough to be scraped in the middle.
    const emu = await emulatorFor(onTestFinished, [{ token, plan: 'professional', faults: 'latency=250ms' }], ['--clock', NOW]);
    const out = tempDir();
    const cli = startCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '3d', '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json', '--metrics-port', '0'],
      { env: { QUOTELAKE_TOKEN: token } },
    );
    const m = await cli.waitForStderr(/quotelake metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)\n/);
    const url = m[1]!;
    let finished = false;
    void cli.result.then(() => (finished = true));
    // Scrape until a request has been counted, with the run still going.
    let during: string | undefined;
    while (!finished) {
      const res = await fetch(url).catch(() => undefined);
      if (res?.status === 200) {
        expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        const text = await res.text();
        if (/quotelake_requests_total\{[^}]*outcome="ok"\} [1-9]/.test(text)) {
          during = text;
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(during, 'no scrape saw a request before the run ended').toBeDefined();
    expect(finished).toBe(false);
    const e = parseExposition(during!);
    expect(e.types.get('quotelake_requests_total')).toBe('counter');
    expect(e.types.get('quotelake_rate_limiter_wait_seconds')).toBe('histogram');
    expect(e.types.get('quotelake_quota_used_requests')).toBe('gauge');
    // Quota read at the scrape, under the token's hash.
    expect(valueOf(e, 'quotelake_quota_used_requests', { token: tokenHash16(token), plan: 'professional' })).toBeGreaterThan(0);
    // The Node process metrics come with the endpoint.
    expect(samplesOf(e, 'process_cpu_user_seconds_total').length).toBe(1);
    expect(samplesOf(e, 'nodejs_heap_size_used_bytes').length).toBe(1);
    expect(during).not.toContain(token);
    expect((await fetch(url.replace('/metrics', '/'))).status).toBe(404);

    const r = await cli.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(token);
    // The endpoint goes away with the process.
    await expect(fetch(url)).rejects.toThrow();
    expect(existsSync(out)).toBe(true);
  });

  it('a run stopped by SIGINT writes its final textfile, the run counted as interrupted', async ({ onTestFinished }) => {
    const token = 'tok-metrics-sigint-61d0a4f2';
    const emu = await emulatorFor(onTestFinished, [{ token, plan: 'professional', faults: 'latency=250ms' }], ['--clock', NOW]);
    const out = tempDir();
    const textfile = join(out, 'q.prom');
    const cli = startCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '5d', '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json', '--metrics-port', '0', '--metrics-textfile', textfile],
      { env: { QUOTELAKE_TOKEN: token } },
    );
    const url = (await cli.waitForStderr(/quotelake metrics on (\S+)\n/))[1]!;
    // Stop it once a request has been answered.
    for (;;) {
      const text = await (await fetch(url)).text();
      if (/quotelake_requests_total\{[^}]*outcome="ok"\} [1-9]/.test(text)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    cli.child.kill('SIGINT');
    const r = await cli.result;
    expect(r.code, r.stderr).toBe(130);
    const summary = (JSON.parse(r.stdout) as { runs: Summary[] }).runs[0]!;
    expect(summary.status).toBe('interrupted');
    const e = parseExposition(readFileSync(textfile, 'utf8'));
    expect(valueOf(e, 'quotelake_run_duration_seconds_count', { pipeline: 'kline-backfill', status: 'interrupted' })).toBe(1);
    // The endpoint served the process metrics; the textfile still has none (node_exporter has the machine's).
    expect(e.samples.filter((x) => !x.name.startsWith('quotelake_')).map((x) => x.name)).toEqual([]);
    // An attempt stopped on its way may or may not have left: it is counted `aborted` either way.
    const total = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    const aborted = total(sumBy(e, 'quotelake_requests_total', 'endpoint', { outcome: 'aborted' }));
    expect(total(sentByEndpoint(e)) - aborted).toBeLessThanOrEqual(summary.requestsTotal);
    expect(total(sentByEndpoint(e))).toBeGreaterThanOrEqual(summary.requestsTotal);
    expect(Object.keys(sentByEndpoint(e)).sort()).toEqual(Object.keys(summary.requests).sort());
    expect(sumBy(e, 'quotelake_rows_total', 'kind')).toMatchObject(
      Object.fromEntries(Object.entries(summary.rows.kline!).filter(([, v]) => v > 0)),
    );
  });

  it('a run ended at once by a second SIGINT still leaves its counts in the textfile, the run counted as interrupted', async () => {
    const out = tempDir();
    const textfile = join(out, 'q.prom');
    // No periodic write in the run's time: the file holds the start's empty counts until a last one.
    const cli = startCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--since', '60d', '--output', out, '--clock', NOW, '--metrics-textfile', textfile, '--metrics-interval', '600'],
      { env: { QUOTELAKE_PROGRESS_INTERVAL_MS: '50' } },
    );
    await cli.waitForStderr(/: [1-9]\d+\/[\d,]+ requests/);
    cli.child.kill('SIGINT');
    await cli.waitForStderr(/SIGINT: stopping/);
    cli.child.kill('SIGINT');
    const r = await cli.result;
    expect(r.signal === 'SIGINT' || r.code === 130, r.stderr).toBe(true);
    expect(r.stderr).toContain('SIGINT again: exiting now');
    const e = parseExposition(readFileSync(textfile, 'utf8'));
    const ok = sumBy(e, 'quotelake_requests_total', 'endpoint', { outcome: 'ok' })['/quote-b-api/kline'] ?? 0;
    expect(ok).toBeGreaterThan(0);
    expect(sumBy(e, 'quotelake_rows_total', 'kind').received).toBeGreaterThan(0);
    expect(valueOf(e, 'quotelake_run_duration_seconds_count', { pipeline: 'kline-backfill', status: 'interrupted' })).toBe(1);
    // The quota the run used, not the start's reading.
    expect(samplesOf(e, 'quotelake_quota_used_requests')[0]!.value).toBeGreaterThanOrEqual(ok);
    expect(readdirSync(out).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('a final textfile write that fails keeps the run\'s summary in --json, names --metrics-textfile, and the data committed', async () => {
    const out = tempDir();
    const folder = join(out, 'collector');
    mkdirSync(folder);
    const textfile = join(folder, 'q.prom');
    // No periodic write: the start's and the end's only.
    const cli = startCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT', '--since', '30d', '--output', join(out, 'lake'), '--clock', NOW, '--json', '--quiet', '--metrics-textfile', textfile, '--metrics-interval', '600'],
      {},
    );
    // Written at the start, before any request; then a folder takes its name, so the end's write fails.
    while (!existsSync(textfile)) await new Promise((resolve) => setTimeout(resolve, 10));
    rmSync(textfile);
    mkdirSync(textfile);
    const r = await cli.result;
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as { exitCode: number; runs?: Summary[]; error?: { code: string; message: string; hint: string } };
    expect(doc.exitCode).toBe(2);
    expect(doc.runs?.map((x) => x.status)).toEqual(['succeeded']);
    expect(doc.runs![0]!.files.count).toBeGreaterThan(0);
    expect(doc.error).toEqual({
      code: 'QL_OUTPUT_MISSING',
      message: `--metrics-textfile ${textfile}: ${textfile} is a folder, where a file is written (EISDIR, rename)`,
      hint: 'name a file, not a folder: choose another --metrics-textfile',
    });
    expect(r.stderr).not.toContain('--output');
    expect(existsSync(join(out, 'lake', 'kline'))).toBe(true);
  });

  it('refuses bad metrics settings as usage errors before any request', async () => {
    const [r1, r2] = await Promise.all([
      runCli(['run', 'snapshots', '--metrics-host', '0.0.0.0', '--clock', NOW]),
      runCli(['run', 'snapshots', '--metrics-port', '70000', '--clock', NOW]),
    ]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain('--metrics-host needs --metrics-port');
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('--metrics-port must be a port number');
  });
});
