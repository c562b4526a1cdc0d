/**
 * Custom plans through the built CLI: `--plans-file F --plan replay` against the built-in emulator
 * (which gets the same file and the plan's demo token), `plan` pacing by a custom plan, the plans
 * file of a pipeline read relative to it, and clear usage errors for a plan no file defines.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

const WINDOW = ['--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-11T00:00:00Z', '--clock', '2026-11-12T00:00:00Z'];
const PLANS = `plans:
  - name: replay
    perSecond: unlimited
    perMinute: unlimited
    perDay: unlimited
    batchKlineGapMs: 0
  - name: tight
    base: basic
    perDay: 100
tokens:
  - token: only-for-the-emulator
    plan: replay
`;

function plansFile(): string {
  const file = join(tempDir('ql-plans-e2e-'), 'replay.yaml');
  writeFileSync(file, PLANS);
  return file;
}

describe('custom plans in the CLI', () => {
  it('run --plans-file F --plan replay: the built-in emulator gets the plan, its demo token, no daily cap', async () => {
    const output = tempDir();
    const r = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', output, '--plans-file', plansFile(), '--plan', 'replay', '--json', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/built-in emulator at http:\/\/127\.0\.0\.1:\d+ with the replay plan's demo token/);
    const run = (JSON.parse(r.stdout) as { runs: { service: { plan: string; embedded: boolean }; requestsTotal: number; quota: { limit: number | null }; rows: Record<string, { written: number }> }[] }).runs[0]!;
    expect(run.service).toMatchObject({ plan: 'replay', embedded: true });
    expect(run.requestsTotal).toBeGreaterThan(0);
    // 1,441 one-minute bars and 25 hourly bars of one day.
    expect(run.rows.kline?.written).toBe(1441 + 25);
    // +Infinity in JSON: no daily cap, and no quota file was kept for it.
    expect(run.quota.limit).toBeNull();
  });

  it('plan: paces by the custom plan; QUOTELAKE_PLANS_FILE works like the flag', async () => {
    const file = plansFile();
    const r = await runCli(['plan', 'kline-backfill', ...WINDOW, '--output', tempDir(), '--plan', 'tight', '--json'], { env: { QUOTELAKE_PLANS_FILE: file } });
    expect(r.code, r.stderr).toBe(0);
    const report = (JSON.parse(r.stdout) as { plans: { service: { plan: string }; quota: { limit: number }; plan: { totalRequests: number; estimatedMs: number } }[] }).plans[0]!;
    expect(report.service.plan).toBe('tight');
    expect(report.quota.limit).toBe(100);
    // Basic's 1 request per second (the base's window): n requests take n - 1 seconds.
    expect(report.plan.estimatedMs).toBe((report.plan.totalRequests - 1) * 1000);
  });

  it('plan on a plan that lifts every limit says it sets no time, rather than only "about 0s"', async () => {
    const example = join(ROOT, 'examples/plans-replay.yaml');
    const [replay, paced] = await Promise.all([
      runCli(['plan', 'kline-backfill', ...WINDOW, '--output', tempDir(), '--plans-file', example, '--plan', 'replay']),
      runCli(['plan', 'kline-backfill', ...WINDOW, '--output', tempDir(), '--plans-file', example, '--plan', 'enterprise']),
    ]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/\n {2}time +about 0s at the plan's limits\n/);
    expect(replay.stdout).toMatch(/\n {4}- plan replay paces nothing, so it sets no time: the run takes as long as the service takes to answer its \d+ requests, and the run its own work\n?/);
    expect(paced.code, paced.stderr).toBe(0);
    expect(paced.stdout).not.toContain('paces nothing');
  });

  it('a pipeline names a custom plan and its plans file, relative to the pipeline file', async () => {
    const dir = tempDir('ql-plans-pipe-');
    mkdirSync(join(dir, 'plans'));
    writeFileSync(join(dir, 'plans', 'mine.yaml'), PLANS);
    const pipeline = join(dir, 'p.yaml');
    writeFileSync(
      pipeline,
      'name: p\nservice:\n  plan: replay\n  plansFile: plans/mine.yaml\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1h]\n  since: 2d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n',
    );
    const r = await runCli(['plan', pipeline, '--output', tempDir(), '--json', '--clock', '2026-11-12T00:00:00Z']);
    expect(r.code, r.stderr).toBe(0);
    const report = (JSON.parse(r.stdout) as { plans: { service: { plan: string }; plan: { estimatedMs: number } }[] }).plans[0]!;
    expect(report.service.plan).toBe('replay');
    expect(report.plan.estimatedMs).toBe(0);
  });

  it('a plan no file defines is a usage error naming the file and the known plans', async () => {
    const file = plansFile();
    const unknown = await runCli(['plan', 'kline-backfill', ...WINDOW, '--plans-file', file, '--plan', 'gold']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`${file}: plan "gold" is neither built in nor defined here (known plans: free, basic, premium, professional, all-hk, all-cn, all-us, replay, tight)`);
    const noFile = await runCli(['plan', 'kline-backfill', ...WINDOW, '--plan', 'replay']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/--plan: "replay" is not one of free, basic, .* \(a custom plan needs a plans file: --plans-file, QUOTELAKE_PLANS_FILE or service\.plansFile\)/);
    const bad = join(tempDir(), 'bad.yaml');
    writeFileSync(bad, 'plans:\n  - name: x\n    perSecond: fast\n');
    const badFile = await runCli(['plan', 'kline-backfill', ...WINDOW, '--plans-file', bad, '--plan', 'x']);
    expect(badFile.code).toBe(2);
    expect(badFile.stderr).toContain(`${bad}: plans[0].perSecond: must be a whole number above 0, or "unlimited", got "fast"`);
    // The file is wrong, not the plan it names.
    expect(badFile.stderr).toContain('hint: fix the plans file');
    const missing = await runCli(['plan', 'kline-backfill', ...WINDOW, '--plans-file', join(tempDir(), 'nope.yaml'), '--plan', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('hint: check the path given as --plans-file or QUOTELAKE_PLANS_FILE');
  });

  it('tickCodesCap refused says null is the way to lift it, on both sides', async () => {
    const file = join(tempDir(), 'cap.yaml');
    writeFileSync(file, 'plans:\n  - name: x\n    tickCodesCap: unlimited\n');
    const [client, serve] = await Promise.all([runCli(['plan', 'kline-backfill', ...WINDOW, '--plans-file', file, '--plan', 'x']), runCli(['serve', '--port', '0', '--plans-file', file])]);
    const message = 'plans[0].tickCodesCap: must be a whole number above 0, or null (no cap: only the 8 KiB URL bounds a request), got "unlimited"';
    expect(client.code).toBe(2);
    expect(client.stderr).toContain(`quotelake: plans file ${file}: ${message}\n`);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain(`quotelake: --plans-file ${file}: ${message}\n`);
  });

  it('serve --plans-file: a wrong or missing file has the hint that fixes it, not "serve --help" (which says nothing of the file)', async () => {
    const bad = join(tempDir(), 'bad.yaml');
    writeFileSync(bad, 'plans:\n  - name: x\n    perSecond: fast\n');
    const nope = join(tempDir(), 'nope.yaml');
    const [wrong, missing] = await Promise.all([runCli(['serve', '--port', '0', '--plans-file', bad]), runCli(['serve', '--port', '0', '--plans-file', nope])]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(`quotelake: --plans-file ${bad}: plans[0].perSecond: must be a whole number above 0, or "unlimited", got "fast"\n  hint: fix the plans file: README, "Plans file", says what it takes\n`);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`quotelake: --plans-file ${nope}: cannot read: ENOENT`);
    expect(missing.stderr).toContain('\n  hint: check the path given as --plans-file\n');
  });

  it("a pipeline's plansFile that cannot be read is reported at its line and column, for validate and run alike", async () => {
    const dir = tempDir('ql-plans-pipe-');
    const pipeline = join(dir, 'p.yaml');
    writeFileSync(
      pipeline,
      'name: p\nservice:\n  plansFile: ./nope.yaml\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1h]\n  since: 2d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n',
    );
    for (const args of [['validate', pipeline], ['run', pipeline, '--output', tempDir(), '--clock', '2026-11-12T00:00:00Z']]) {
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${pipeline}:3:14: service.plansFile: "./nope.yaml" (${join(dir, 'nope.yaml')}): cannot read: ENOENT`);
      expect(r.stderr).toContain("a relative path is read from the pipeline file's folder");
      expect(r.stderr).toContain('hint: fix the pipeline file');
    }
  });
});
