/**
 * A pipeline that names a custom plan (service.plan) but no service.plansFile takes the plans file
 * of --plans-file or QUOTELAKE_PLANS_FILE, as README's precedence says of every setting. It was
 * refused by the schema ("a custom plan needs service.plansFile") whatever the flag or variable said,
 * even beside a --plan that replaced the file's plan. With no plans file anywhere it is still exit
 * 2, at the line of service.plan, naming every place a plans file may come from.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';

const CLOCK = '2026-11-12T00:00:00Z';
const PLANS = 'plans:\n  - name: replay\n    perSecond: unlimited\n    perMinute: unlimited\n    perDay: unlimited\n    batchKlineGapMs: 0\n    suspensionGapMs: 0\n';
const PIPELINE =
  'name: p\nservice:\n  plan: replay\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1h]\n  since: 2d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';
const NO_PLANS_FILE =
  ':3:9: service.plan: "replay" is not one of free, basic, premium, professional, all-hk, all-cn, all-us (a custom plan needs a plans file: service.plansFile, --plans-file or QUOTELAKE_PLANS_FILE)';

const dir = tempDir('ql-plan-env-');
const plans = join(dir, 'plans.yaml');
const pipeline = join(dir, 'p.yaml');
writeFileSync(plans, PLANS);
writeFileSync(pipeline, PIPELINE);

type RunJson = { runs: { service: { plan: string; embedded: boolean }; rows: { kline: { written: number } }; quota: { limit: number | null } }[] };

describe('service.plan names a custom plan of the plans file given by flag or environment', () => {
  it('validate: refused at the line of service.plan without a plans file; valid with QUOTELAKE_PLANS_FILE', async () => {
    const [alone, withEnv] = await Promise.all([runCli(['validate', pipeline]), runCli(['validate', pipeline], { env: { QUOTELAKE_PLANS_FILE: plans } })]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(`${pipeline}${NO_PLANS_FILE}`);
    expect(withEnv.code, withEnv.stderr).toBe(0);
    expect(withEnv.stderr).toBe(`quotelake: ${pipeline}: valid (pipeline p, source kline-history, sink parquet)\n`);
  });

  it('validate: a QUOTELAKE_PLANS_FILE that does not define the plan names the file and its plans', async () => {
    const other = join(dir, 'other.yaml');
    writeFileSync(other, 'plans:\n  - name: other\n');
    const r = await runCli(['validate', pipeline], { env: { QUOTELAKE_PLANS_FILE: other } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${other}: plan "replay" is neither built in nor defined here (known plans: free, basic, premium, professional, all-hk, all-cn, all-us, other)`);
  });

  it('plan --plans-file: paces by the plan the pipeline names', async () => {
    const r = await runCli(['plan', pipeline, '--plans-file', plans, '--output', tempDir(), '--clock', CLOCK, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = (JSON.parse(r.stdout) as { plans: { service: { plan: string }; plan: { estimatedMs: number } }[] }).plans[0]!;
    expect(report.service.plan).toBe('replay');
    expect(report.plan.estimatedMs).toBe(0);
  });

  it('plan and run without a plans file: exit 2 at the line, nothing written', async () => {
    const output = join(tempDir(), 'out');
    const [plan, run] = await Promise.all([
      runCli(['plan', pipeline, '--output', output, '--clock', CLOCK]),
      runCli(['run', pipeline, '--output', output, '--clock', CLOCK]),
    ]);
    for (const r of [plan, run]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${pipeline}${NO_PLANS_FILE}`);
    }
    expect(existsSync(output)).toBe(false);
  });

  it('--plan replaces the file\'s custom plan with no plans file at all', async () => {
    const r = await runCli(['plan', pipeline, '--plan', 'basic', '--output', tempDir(), '--clock', CLOCK, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { plans: { service: { plan: string } }[] }).plans[0]!.service.plan).toBe('basic');
  });

  it('run with QUOTELAKE_PLANS_FILE: the built-in emulator serves the plan and its demo token', async () => {
    const r = await runCli(['run', pipeline, '--output', tempDir(), '--clock', CLOCK, '--json', '--quiet'], { env: { QUOTELAKE_PLANS_FILE: plans } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/built-in emulator at http:\/\/127\.0\.0\.1:\d+ with the replay plan's demo token/);
    const run = (JSON.parse(r.stdout) as RunJson).runs[0]!;
    expect(run.service).toMatchObject({ plan: 'replay', embedded: true });
    // 48 hourly bars of the two days and the one that opens at the clock.
    expect(run.rows.kline.written).toBe(49);
    expect(run.quota.limit).toBeNull();
  });

  describe('against quotelake serve', () => {
    let serve: CliProcess;
    let baseUrl: string;
    beforeAll(async () => {
      serve = startCli(['serve', '--port', '0', '--plans-file', plans, '--clock', CLOCK]);
      baseUrl = (await serve.waitForStderr(/listening on (http:\/\/\S+)/))[1]!;
    });
    afterAll(async () => {
      serve.child.kill('SIGTERM');
      await serve.result;
    });

    it('run --plans-file with the plan\'s token: the remote run is paced by the plan the pipeline names', async () => {
      const r = await runCli(['run', pipeline, '--plans-file', plans, '--output', tempDir(), '--clock', CLOCK, '--json', '--quiet'], {
        env: { QUOTELAKE_BASE_URL: baseUrl, QUOTELAKE_TOKEN: 'demo-replay' },
      });
      expect(r.code, r.stderr).toBe(0);
      const run = (JSON.parse(r.stdout) as RunJson).runs[0]!;
      expect(run.service).toMatchObject({ plan: 'replay', embedded: false });
      expect(run.rows.kline.written).toBe(49);
      expect(run.quota.limit).toBeNull();
    });
  });
});
