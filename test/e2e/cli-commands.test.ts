/** inspect, quota, list, schema, plan and run --dry-run through the built CLI; exit 3 and 1 for rejected records. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allFiles, ROOT, runCli, tempDir, type CliResult } from './helpers/cli.js';
import { serveChild } from './helpers/serve.js';

const FIXTURES = join(ROOT, 'test/fixtures/pipelines');
const WINDOW = ['--codes', 'BTCUSDT,AAPL.US', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-11T00:00:00Z'];

let output: string;
let run: CliResult;

beforeAll(async () => {
  output = tempDir();
  run = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', output, '--quiet']);
}, 60_000);

describe('inspect', () => {
  it('reads the files back: rows and time range per series, partitions, last runs', async () => {
    expect(run.code, run.stderr).toBe(0);
    const r = await runCli(['inspect', output, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      datasets: { dataset: string; format: string; rows: number; files: number; partitions: string[]; problems: string[]; series: { series: string; rows: number; first: string; last: string }[] }[];
      runs: { pipeline: string; status: string; requests: number }[];
    };
    expect(doc.datasets).toHaveLength(1);
    const kline = doc.datasets[0]!;
    expect(kline).toMatchObject({ dataset: 'kline', format: 'parquet', problems: [] });
    const btc1m = kline.series.find((s) => s.series === 'BTCUSDT 1m')!;
    // 2026-11-10T00:00Z .. 2026-11-11T00:00Z inclusive of the bar opening at `until`.
    expect(btc1m.first).toBe('2026-11-10T00:00:00.000Z');
    expect(btc1m.last).toBe('2026-11-11T00:00:00.000Z');
    expect(btc1m.rows).toBe(1441);
    expect(kline.rows).toBe(kline.series.reduce((a, s) => a + s.rows, 0));
    expect(kline.partitions).toContain('interval=1m/year=2026/date=2026-11-10');
    expect(doc.runs[0]).toMatchObject({ pipeline: 'kline-backfill', status: 'succeeded' });
    const text = await runCli(['inspect', output]);
    expect(text.stdout).toMatch(/BTCUSDT 1m\s+1,441 rows\s+2026-11-10T00:00:00\.000Z \.\. 2026-11-11T00:00:00\.000Z/);
    const cov = await runCli(['inspect', output, '--coverage', '--json']);
    const report = (JSON.parse(cov.stdout) as { coverage: { series: { code: string; interval: string }[]; totals: { unexplained: number } } }).coverage;
    // The same series inspect found, each with its gaps classified.
    expect(report.series.map((s) => `${s.code} ${s.interval}`).sort()).toEqual(kline.series.map((s) => s.series).sort());
    expect(report.series.map((s) => `${s.code} ${s.interval}`)).toContain('BTCUSDT 1m');
    expect(report.totals.unexplained).toBe(0);
    const missing = await runCli(['inspect', join(output, 'nope')]);
    expect(missing.code).toBe(2);
    // Named as missing, not as "not a folder" (which reads as: something else is there).
    expect(missing.stderr).toContain(`quotelake: ${join(output, 'nope')} does not exist (no run has written there)\n  hint: give the output folder of a run`);
  });

  it("a run that fetched rows the lake held already shows them merged, not as a run of 0 rows", async () => {
    const again = tempDir();
    cpSync(output, again, { recursive: true });
    const refresh = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', again, '--full-refresh', '--yes', '--quiet']);
    expect(refresh.code, refresh.stderr).toBe(0);
    const doc = JSON.parse((await runCli(['inspect', again, '--json'])).stdout) as { datasets: { rows: number }[]; runs: { rowsWritten: number; rowsMerged: number }[] };
    expect(doc.runs.map((r) => [r.rowsWritten, r.rowsMerged])).toEqual([
      [0, doc.datasets[0]!.rows],
      [doc.datasets[0]!.rows, 0],
    ]);
    const text = (await runCli(['inspect', again])).stdout;
    expect(text).toContain(` 0 rows (+ ${doc.datasets[0]!.rows.toLocaleString('en-US')} merged), `);
  });

  it('--runs 0 shows no run (it showed every one), and a negative count is a usage error', async () => {
    const none = await runCli(['inspect', output, '--runs', '0', '--json']);
    expect((JSON.parse(none.stdout) as { runs: unknown[] }).runs).toEqual([]);
    const text = await runCli(['inspect', output, '--runs', '0']);
    expect(text.stdout).not.toMatch(/last runs|no runs recorded/);
    expect(text.stdout).toContain('BTCUSDT 1m');
    const negative = await runCli(['inspect', output, '--runs', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--runs must be a whole number from 0, got -1');
    // The hint names the command, not a placeholder.
    expect(negative.stderr).toContain('run "quotelake inspect --help" for usage');
    expect(negative.stderr).not.toContain('<command>');
  });

  it('a damaged manifest is exit 1 naming it, with what to do (not a usage error)', async () => {
    const damaged = tempDir();
    cpSync(output, damaged, { recursive: true });
    writeFileSync(join(damaged, '_quotelake/manifests/kline.parquet.json'), '{torn');
    const r = await runCli(['inspect', damaged]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('_quotelake/manifests/kline.parquet.json in ');
    expect(r.stderr).toContain('is not valid JSON');
    expect(r.stderr).toMatch(/hint: the manifest is the lake's record of its live files.*restore it from a backup/);
  });

  it("a run's summary lists the coverage of its own pipeline's series, not every series of the output", async () => {
    // The output holds BTCUSDT and AAPL.US from the first run; this run fetches BTCUSDT only.
    const again = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-11T00:00:00Z', '--output', output, '--quiet', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout) as { runs: { coverage: { series: { code: string; interval: string }[] } }[] };
    expect(summary.runs[0]!.coverage.series.map((s) => `${s.code} ${s.interval}`).sort()).toEqual(['BTCUSDT 1h', 'BTCUSDT 1m']);
    // This run found nothing new: its range starts at the last bar held before it, not at the day held.
    const btc1m = (summary.runs[0]!.coverage.series as unknown as { code: string; interval: string; bars: number; first: string; rangeFrom: string }[]).find((s) => s.interval === '1m')!;
    expect(btc1m).toMatchObject({ bars: 1, first: '2026-11-11T00:00:00.000Z', rangeFrom: '2026-11-11T00:00:00.000Z' });
    const cov = JSON.parse((await runCli(['inspect', output, '--coverage', '--json'])).stdout) as { coverage: { series: { code: string }[] } };
    expect(new Set(cov.coverage.series.map((s) => s.code))).toEqual(new Set(['BTCUSDT', 'AAPL.US']));
  });

  it('--coverage audits K-lines of each format an output holds them in, not the first only', async () => {
    const both = tempDir();
    cpSync(output, both, { recursive: true });
    // The same pipeline as Arrow into the same folder, BTCUSDT only: its own table beside the Parquet one.
    const arrow = await runCli(['run', 'kline-backfill', '--format', 'arrow', '--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-10T12:00:00Z', '--output', both, '--quiet']);
    expect(arrow.code, arrow.stderr).toBe(0);
    type Report = { series: { code: string; interval: string; bars: number }[] };
    const doc = JSON.parse((await runCli(['inspect', both, '--coverage', '--json'])).stdout) as { coverage: Report; coverageByFormat: Record<string, Report> };
    expect(Object.keys(doc.coverageByFormat).sort()).toEqual(['arrow', 'parquet']);
    // `coverage` stays what it was: the first table inspect lists (formats sorted).
    expect(doc.coverage).toEqual(doc.coverageByFormat.arrow);
    expect(new Set(doc.coverageByFormat.parquet!.series.map((s) => s.code))).toEqual(new Set(['BTCUSDT', 'AAPL.US']));
    const arrowSeries = doc.coverageByFormat.arrow!.series;
    expect(arrowSeries.map((s) => s.code)).toEqual(['BTCUSDT', 'BTCUSDT']);
    expect(arrowSeries.find((s) => s.interval === '1m')!.bars).toBe(721);
    const text = (await runCli(['inspect', both, '--coverage'])).stdout;
    expect(text).toMatch(/^coverage of kline \(parquet\): 3 series;/m);
    expect(text).toMatch(/^coverage of kline \(arrow\): 2 series;/m);
    // One format: the report reads as it always has.
    expect((await runCli(['inspect', output, '--coverage'])).stdout).toMatch(/^coverage: 3 series;/m);
  });

  it('quota shows the demo token by name and a given token redacted', async () => {
    const q = await runCli(['quota', '--output', output, '--json']);
    const doc = JSON.parse(q.stdout) as { tokens: { token: string; usedToday: number; limit: number; remaining: number }[] };
    expect(doc.tokens).toHaveLength(1);
    expect(doc.tokens[0]!.token).toBe('demo-professional (the emulator\'s demo token)');
    expect(doc.tokens[0]!.usedToday + doc.tokens[0]!.remaining).toBe(1_728_000);
    expect(doc.tokens[0]!.usedToday).toBeGreaterThan(0);
  });
});

describe('list, schema, plan', () => {
  it('list names every shipped pipeline with its description', async () => {
    const r = await runCli(['list', '--json']);
    const doc = JSON.parse(r.stdout) as { pipelines: { name: string; description: string; origin: string }[] };
    const names = doc.pipelines.map((p) => p.name);
    for (const n of ['demo', 'kline-backfill', 'kline-update', 'snapshots', 'halts', 'trades-ndjson', 'demo/1-kline-latest']) expect(names).toContain(n);
    expect(doc.pipelines.find((p) => p.name === 'demo')!.description).toMatch(/^Demo: /);
  });

  it('schema prints the JSON Schema with every component type', async () => {
    const r = await runCli(['schema']);
    expect(r.code).toBe(0);
    const schema = JSON.stringify(JSON.parse(r.stdout));
    for (const t of ['kline-history', 'kline-latest', 'depth-snapshot', 'trade-snapshot', 'trading-halts', 'parse-decimals', 'normalize-halts', 'parquet', 'arrow', 'ndjson']) {
      expect(schema).toContain(`"const":"${t}"`);
    }
  });

  it('plan and run --dry-run give requests, quota share and time, sending nothing', async () => {
    const dry = tempDir();
    const [plan, dryRun] = await Promise.all([
      runCli(['plan', 'kline-backfill', ...WINDOW, '--plan', 'free', '--output', dry, '--json']),
      runCli(['run', 'kline-backfill', ...WINDOW, '--plan', 'free', '--output', dry, '--dry-run']),
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    const p = (JSON.parse(plan.stdout) as { plans: { plan: { totalRequests: number; requests: Record<string, number>; quota: { remaining: number; days: number }; estimatedMs: number } }[] }).plans[0]!.plan;
    // BTCUSDT: 1441 1m bars = 3 pages + 25 1h bars = 1 page; AAPL.US: newest bars only, 1 page each.
    expect(p.requests).toEqual({ '/quote-b-api/kline': 4, '/quote-stock-b-api/kline': 2 });
    expect(p.quota).toMatchObject({ remaining: 1000, days: 1 });
    expect(p.estimatedMs).toBeGreaterThanOrEqual(50_000);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toMatch(/requests\s+6/);
    expect(allFiles(dry).filter((f) => !f.includes('.state'))).toEqual([]);
  });
});

describe('--format ndjson', () => {
  it('streams records on stdout; the --json summary moves to stderr', async () => {
    const r = await runCli(['run', join(FIXTURES, 'tiny-trades.yaml'), '--format', 'ndjson', '--json', '--output', tempDir()]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { code: string; price: string });
    expect(lines.map((l) => l.code).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    const doc = JSON.parse(r.stderr.slice(r.stderr.indexOf('{\n'))) as { runs: { output: { format: string }; rows: { trade: { written: number } } }[] };
    expect(doc.runs[0]).toMatchObject({ output: { format: 'ndjson' }, rows: { trade: { written: 2 } } });
  });
});

describe('rejected records and service errors', () => {
  it('exit 3 when rejected records are diverted; exit 1 with a hint when the pipeline says fail', async () => {
    const out = tempDir();
    const [diverted, failed] = await Promise.all([
      runCli(['run', join(FIXTURES, 'narrow-decimals.yaml'), '--output', out, '--json']),
      runCli(['run', join(FIXTURES, 'narrow-fail.yaml'), '--output', tempDir()]),
    ]);
    expect(diverted.code, diverted.stderr).toBe(3);
    const s = (JSON.parse(diverted.stdout) as { runs: { status: string; rejected: number }[] }).runs[0]!;
    expect(s).toMatchObject({ status: 'rejected-records', rejected: 2 });
    const rejectedFiles = allFiles(join(out, '_rejected'));
    expect(rejectedFiles).toHaveLength(1);
    expect(readFileSync(rejectedFiles[0]!, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/quotelake: record rejected: QL_DECIMAL_OVERFLOW: field \w+: .* DECIMAL\(6,2\)/);
    expect(failed.stderr).toContain('hint: the pipeline says onReject: fail');
  });

  it('an unknown token: exit 1, the hint names QUOTELAKE_TOKEN, the token is not printed', async () => {
    const emu = await serveChild([]);
    try {
      const secret = 'sk-not-a-known-token-0123456789';
      const out = tempDir();
      const r = await runCli(['run', join(FIXTURES, 'tiny-trades.yaml'), '--base-url', emu.url, '--plan', 'basic', '--output', out, '--json'], {
        env: { QUOTELAKE_TOKEN: secret },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/quotelake: .*ret 401 token invalid/);
      expect(r.stderr).toContain('hint: the service does not know this token');
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect(allFiles(out).filter((f) => readFileSync(f, 'utf8').includes(secret))).toEqual([]);
      expect((JSON.parse(r.stdout) as { runs: { error: { code: string } }[] }).runs[0]!.error.code).toBe('QL_API_TOKEN_INVALID');
    } finally {
      await emu.stop();
    }
  });
});
