/**
 * `plan` and `run --dry-run` exit as the run they plan would as far as the quota decides it: 75 when
 * its requests exceed what is left of today's quota (the run stops at the daily quota), with the
 * same code in --json, so `quotelake plan p.yaml && quotelake run p.yaml` does not start that run.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = ['--clock', '2026-11-20T12:00:00Z'];
// basic's pace with five requests a day.
const PLANS = 'plans:\n  - name: tiny\n    base: basic\n    perDay: 5\n';

/** A trade-snapshot of `rounds` rounds (one request each) on the tiny plan. */
function setUp(rounds: number): { file: string; plans: string; output: string } {
  const dir = tempDir('ql-plan-verdict-');
  const file = join(dir, 'poll.yaml');
  writeFileSync(file, ['name: poll', 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', '  everySeconds: 1', `  count: ${rounds}`, 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
  const plans = join(dir, 'plans.yaml');
  writeFileSync(plans, PLANS);
  return { file, plans, output: join(dir, 'out') };
}

interface PlanDoc {
  exitCode: number;
  plans: { exitCode: number; quota: { remaining: number }; plan: { totalRequests: number; quota: { days: number; remaining: number } } }[];
}

describe('the plan\'s exit code', () => {
  it('requests over today\'s quota: plan and run --dry-run exit 75, --json says 75, stderr says why', async () => {
    const { file, plans, output } = setUp(6);
    const args = [file, '--plans-file', plans, '--plan', 'tiny', '--output', output, ...CLOCK];
    const plan = await runCli(['plan', ...args, '--json']);
    expect(plan.code, plan.stderr).toBe(75);
    const doc = JSON.parse(plan.stdout) as PlanDoc;
    expect(doc.exitCode).toBe(75);
    expect(doc.plans[0]).toMatchObject({ exitCode: 75, quota: { remaining: 5 }, plan: { totalRequests: 6, quota: { days: 2 } } });
    expect(plan.stderr).toContain("quotelake: poll: its 6 requests exceed the 5 left of today's quota: a run would stop at the daily quota (exit 75), which resets at 2026-11-21T00:00:00.000Z.");
    const dryRun = await runCli(['run', ...args, '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(75);
    expect(dryRun.stdout).toContain('needs 2 days');
    // A poller's rounds are of their moment: after the reset a run polls afresh.
    expect(dryRun.stdout).toContain('the run stops cleanly when it is used up, keeping the rounds fetched: the rest are not polled');
    // The run it planned ends the same way.
    const run = await runCli(['run', ...args, '--json', '--quiet']);
    expect(run.code, run.stderr).toBe(75);
  }, 60_000);

  it('within today\'s quota: exit 0 with nothing on stderr, and the run then exits 0', async () => {
    const { file, plans, output } = setUp(5);
    const args = [file, '--plans-file', plans, '--plan', 'tiny', '--output', output, ...CLOCK];
    const plan = await runCli(['plan', ...args, '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as PlanDoc).exitCode).toBe(0);
    expect(plan.stderr).toBe('');
    expect(existsSync(output)).toBe(false);
    const run = await runCli(['run', ...args, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
  }, 60_000);

  it('several pipelines: the most serious code, each plan its own', async () => {
    const over = setUp(6);
    const within = setUp(2);
    const r = await runCli(['plan', within.file, over.file, '--plans-file', over.plans, '--plan', 'tiny', '--output', over.output, ...CLOCK, '--json']);
    expect(r.code, r.stderr).toBe(75);
    expect((JSON.parse(r.stdout) as PlanDoc).plans.map((p) => p.exitCode)).toEqual([0, 75]);
  });

  it('pipelines on one quota: a later one plans on what the earlier ones leave, as the run spends it', async () => {
    const first = setUp(3);
    const second = setUp(3);
    const args = [first.file, second.file, '--plans-file', first.plans, '--plan', 'tiny', '--output', first.output, ...CLOCK];
    const plan = await runCli(['plan', ...args, '--json']);
    expect(plan.code, plan.stderr).toBe(75);
    const doc = JSON.parse(plan.stdout) as PlanDoc;
    expect(doc.plans.map((p) => [p.exitCode, p.quota.remaining, p.plan.quota.remaining])).toEqual([[0, 5, 5], [75, 5, 2]]);
    expect(plan.stderr).toContain("its 3 requests exceed the 2 left of today's quota after the pipelines before it");
    const run = await runCli(['run', ...args, '--quiet']);
    expect(run.code, run.stderr).toBe(75);
  }, 60_000);
});
