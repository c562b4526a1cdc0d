/**
 * `validate --plans-file`, as run and plan take it: a pipeline whose service.plan names a custom
 * plan of a plans file validates clean with the flag (before, only through QUOTELAKE_PLANS_FILE).
 * A service.plan the plans file in use does not define is a problem at that value's line and column,
 * in the --json document as in the text.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const BUILT_IN = 'free, basic, premium, professional, all-hk, all-cn, all-us';
const dir = tempDir('ql-validate-plans-');
const plans = join(dir, 'plans.yaml');
writeFileSync(plans, 'plans:\n  - name: team\n    base: professional\n    perMinute: 100\n');
const body = 'source:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1h]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';
const custom = join(dir, 'custom.yaml');
writeFileSync(custom, `name: custom\nservice:\n  plan: team\n${body}`);
const typo = join(dir, 'typo.yaml');
writeFileSync(typo, `name: typo\nservice:\n  plan: teem\n${body}`);
const ownFile = join(dir, 'own-file.yaml');
writeFileSync(ownFile, `name: own-file\nservice:\n  plansFile: plans.yaml\n  plan: teem\n${body}`);

const notDefined = (file: string, at: string, plansAs: string) =>
  `${file}:${at}: service.plan: plans file ${plansAs}: plan "teem" is neither built in nor defined here; did you mean "team"? (known plans: ${BUILT_IN}, team); name a plan the file defines, or a built-in one`;
const FIX_HINT = '  hint: fix the pipeline file ("quotelake validate <pipeline>" checks it without running; "quotelake schema" prints its JSON Schema)\n';

describe('validate --plans-file', () => {
  it('a custom service.plan of the plans file is valid with the flag, and refused without any plans file', async () => {
    const [alone, flag] = await Promise.all([runCli(['validate', custom]), runCli(['validate', custom, '--plans-file', plans])]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(`${custom}:3:9: service.plan: "team" is not one of ${BUILT_IN} (a custom plan needs a plans file: service.plansFile, --plans-file or QUOTELAKE_PLANS_FILE)`);
    expect([flag.code, flag.stderr]).toEqual([0, `quotelake: ${custom}: valid (pipeline custom, source kline-history, sink parquet)\n`]);
  });

  it('a service.plan the plans file does not define: at its line and column, from the flag, the variable or the pipeline\'s own plansFile', async () => {
    const [flag, variable, own] = await Promise.all([
      runCli(['validate', typo, '--plans-file', plans]),
      runCli(['validate', typo], { env: { QUOTELAKE_PLANS_FILE: plans } }),
      runCli(['validate', ownFile]),
    ]);
    expect([flag.code, flag.stderr]).toEqual([2, `quotelake: ${notDefined(typo, '3:9', plans)}\n${FIX_HINT}`]);
    expect([variable.code, variable.stderr]).toEqual([2, `quotelake: ${notDefined(typo, '3:9', plans)}\n${FIX_HINT}`]);
    // The pipeline's own plansFile is read from its folder: the message names it as found.
    expect([own.code, own.stderr]).toEqual([2, `quotelake: ${notDefined(ownFile, '4:9', plans)}\n${FIX_HINT}`]);
  });

  it('--json: the same problem in the same document shape, the valid file beside it', async () => {
    const r = await runCli(['validate', typo, custom, '--plans-file', plans, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      quotelake: expect.any(String),
      command: 'validate',
      valid: false,
      pipelines: [
        { file: typo, valid: false, problems: [notDefined(typo, '3:9', plans)] },
        { file: custom, name: 'custom', valid: true, problems: [] },
      ],
    });
  });

  it('completes as an option of validate', async () => {
    const r = await runCli(['--get-yargs-completions', 'quotelake', 'validate', custom, '--pl'], { env: { SHELL: '/bin/bash' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toContain('--plans-file');
  });
});
