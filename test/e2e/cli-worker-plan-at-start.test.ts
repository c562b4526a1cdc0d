/**
 * A worker checks its plan (--plan, QUOTELAKE_PLAN) when it starts, as `run` does, whatever the
 * queue holds. A typo'd plan on an empty queue was exit 0 (no slice ran, so nothing looked at the
 * name): a batch on cron looked healthy until the day a slice arrived, which then failed for good.
 * Through the built CLI with a real redis-server on loopback.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const BUILT_IN = 'free, basic, premium, professional, all-hk, all-cn, all-us';
const TYPO = `"profesional" is not one of ${BUILT_IN} (did you mean "professional"?)\n  hint: plans: ${BUILT_IN}\n`;

const dir = tempDir('ql-worker-plan-');
const plans = join(dir, 'plans.yaml');
writeFileSync(plans, 'plans:\n  - name: team\n    base: professional\n    perMinute: 100\n');
const pipeline = join(dir, 'p.yaml');
writeFileSync(pipeline, 'name: p\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1h]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');

describe('a worker with an unknown plan', () => {
  const redis = useRedisServer();
  const worker = (args: string[], env: Record<string, string> = {}) => runCli(['worker', '--until-empty', '--clock', CLOCK, ...args], { env: { QUOTELAKE_REDIS_URL: redis().url, ...env } });

  it('on an empty queue: exit 2 with what run says of the plan; a custom plan its own plans file defines is known', async () => {
    const [flag, variable, run, custom, notInFile, known, knownFromEnv] = await Promise.all([
      worker(['--plan', 'profesional']),
      worker([], { QUOTELAKE_PLAN: 'profesional' }),
      runCli(['run', pipeline, '--plan', 'profesional', '--output', tempDir(), '--clock', CLOCK]),
      worker(['--plan', 'team']),
      worker(['--plan', 'teem', '--plans-file', plans]),
      worker(['--plan', 'team', '--plans-file', plans]),
      worker([], { QUOTELAKE_PLAN: 'team', QUOTELAKE_PLANS_FILE: plans }),
    ]);
    expect(run.stderr).toBe(`quotelake: --plan: ${TYPO}`);
    expect([flag.code, flag.stderr]).toEqual([2, run.stderr]);
    expect([variable.code, variable.stderr]).toEqual([2, `quotelake: QUOTELAKE_PLAN: ${TYPO}`]);
    // A custom plan serves every pipeline on the queue: the worker's own plans file must define it.
    expect([custom.code, custom.stderr]).toEqual([
      2,
      `quotelake: --plan: "team" is not one of ${BUILT_IN} (a custom plan needs a plans file: --plans-file or QUOTELAKE_PLANS_FILE, the worker's own)\n  hint: plans: ${BUILT_IN}\n`,
    ]);
    expect([notInFile.code, notInFile.stderr]).toEqual([
      2,
      `quotelake: plans file ${plans}: plan "teem" is neither built in nor defined here; did you mean "team"? (known plans: ${BUILT_IN}, team)\n  hint: name a plan the file defines, or a built-in one\n`,
    ]);
    for (const r of [known, knownFromEnv]) expect([r.code, r.stderr]).toEqual([0, '']);
  });

  it("a token pool's plans too: each known, a custom one from the worker's own plans file", async () => {
    const [typo, custom, known] = await Promise.all([
      worker([], { QUOTELAKE_TOKENS: 'pool-token-a:professional,pool-token-b:profesional' }),
      worker([], { QUOTELAKE_TOKENS: 'pool-token-a:professional,pool-token-b:team' }),
      worker(['--plans-file', plans], { QUOTELAKE_TOKENS: 'pool-token-a:professional,pool-token-b:team' }),
    ]);
    const hint = (names: string) => `  hint: plans: ${names} (a custom plan needs --plans-file or QUOTELAKE_PLANS_FILE, the worker's own)\n`;
    expect([typo.code, typo.stderr]).toEqual([2, `quotelake: QUOTELAKE_TOKENS: entry 2 of 2: its plan is not a known plan (the entry is token:plan)\n${hint(BUILT_IN)}`]);
    expect([custom.code, custom.stderr]).toEqual([2, typo.stderr]);
    expect([known.code, known.stderr]).toEqual([0, '']);
  });

  it('with a slice queued: exit 2 before taking it, the slice still waiting (not failed for good)', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const queued = await runCli(['enqueue', pipeline, '--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T05:00:00Z', '--clock', CLOCK, '--output', tempDir(), '--json'], { env });
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ slices: 1, added: 1 });
    const r = await worker(['--plan', 'profesional']);
    expect([r.code, r.stderr]).toEqual([2, `quotelake: --plan: ${TYPO}`]);
    const status = JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
    expect(status).toMatchObject({ waiting: 1, active: 0, completed: 0, failed: 0 });
  });
});
