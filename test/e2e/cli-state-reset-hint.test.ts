/**
 * A run refused over its checkpoints names the `quotelake state reset` that mends it. Typed as
 * shown, that command must reach the checkpoints of the refused run's output, not those of the
 * default `output/` folder (which may hold a pipeline of the same name: it must stay untouched).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = ['--clock', '2026-11-12T15:00:00Z'];

function pipeline(dir: string, sink: 'parquet' | 'arrow'): string {
  const file = join(dir, `daily-${sink}.yaml`);
  writeFileSync(
    file,
    [
      'name: daily',
      'source:',
      '  type: kline-history',
      '  codes: [BTCUSDT]',
      '  intervals: [1h]',
      '  since: 2026-11-11T00:00:00Z',
      '  until: 2026-11-11T03:00:00Z',
      'transforms:',
      '  - type: parse-decimals',
      'sink:',
      `  type: ${sink}`,
      '',
    ].join('\n'),
  );
  return file;
}

/** The command between the quotes of `start it over with "…"` / `over here with "…"`. */
function hintedReset(stderr: string): string[] {
  const m = /with "(quotelake state reset [^"]+)"/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!.split(' ').slice(1);
}

const streamsOf = (file: string): string[] => Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { streams: object }).streams);

describe('the state reset a refused run names', () => {
  it('another sink under the same name: the hinted reset takes that output, and output/ is left alone', async () => {
    const cwd = tempDir('ql-reset-hint-');
    const parquet = pipeline(cwd, 'parquet');
    const arrow = pipeline(cwd, 'arrow');
    const lake = join(cwd, 'lake');
    // output/ (the default) holds a pipeline "daily" of its own.
    for (const output of [lake, 'output']) {
      const r = await runCli(['run', parquet, '--output', output, ...CLOCK, '--quiet'], { cwd });
      expect(r.code, r.stderr).toBe(0);
    }
    const refused = await runCli(['run', arrow, '--output', lake, ...CLOCK, '--quiet'], { cwd });
    expect(refused.code).toBe(2);
    const reset = hintedReset(refused.stderr);
    expect(reset).toEqual(['state', 'reset', 'daily', '--output', lake]);

    const r = await runCli([...reset, '--yes'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(lake, '.state', 'checkpoints', 'daily.json'))).toBe(false);
    expect(streamsOf(join(cwd, 'output', '.state', 'checkpoints', 'daily.json'))).toEqual(['kline/BTCUSDT/1h']);
    const again = await runCli(['run', arrow, '--output', lake, ...CLOCK, '--quiet'], { cwd });
    expect(again.code, again.stderr).toBe(0);
  }, 60_000);

  it('a state folder of another lake: the hinted reset names that --state-dir too', async () => {
    const cwd = tempDir('ql-reset-hint-');
    const parquet = pipeline(cwd, 'parquet');
    const first = join(cwd, 'first');
    const state = join(first, '.state');
    expect((await runCli(['run', parquet, '--output', first, ...CLOCK, '--quiet'], { cwd })).code).toBe(0);
    const other = join(cwd, 'other');
    mkdirSync(other);
    const refused = await runCli(['run', parquet, '--output', other, '--state-dir', state, ...CLOCK, '--quiet'], { cwd });
    expect(refused.code).toBe(2);
    const reset = hintedReset(refused.stderr.split('otherwise')[1] ?? '');
    expect(reset).toEqual(['state', 'reset', 'daily', '--output', other, '--state-dir', state]);
    expect((await runCli([...reset, '--yes'], { cwd })).code).toBe(0);
    expect(existsSync(join(state, 'checkpoints', 'daily.json'))).toBe(false);
  }, 60_000);

  it('run --full-refresh without a terminal names the whole command with --yes: typed as shown, it refreshes that output', async () => {
    const cwd = tempDir('ql-reset-hint-');
    const parquet = pipeline(cwd, 'parquet');
    const lake = join(cwd, 'lake');
    for (const output of [lake, 'output']) expect((await runCli(['run', parquet, '--output', output, ...CLOCK, '--quiet'], { cwd })).code).toBe(0);
    const asked = await runCli(['run', parquet, '--output', lake, ...CLOCK, '--full-refresh', '--json'], { cwd });
    expect(asked.code).toBe(2);
    const hint = (JSON.parse(asked.stdout) as { error: { hint: string } }).error.hint;
    expect(hint).toBe(`add --yes to confirm it in a script: quotelake run ${parquet} --output ${lake} ${CLOCK.join(' ')} --full-refresh --json --yes`);
    const again = await runCli(hint.split(': quotelake ')[1]!.split(' '), { cwd });
    expect(again.code, again.stderr).toBe(0);
    const runs = (JSON.parse(again.stdout) as { runs: { output: { dir: string }; requestsTotal: number }[] }).runs;
    expect(runs.map((r) => [r.output.dir, r.requestsTotal])).toEqual([[lake, 1]]);
    // A coordinator's password is not repeated (the confirmation is asked before any connection).
    const withRedis = await runCli(['run', parquet, '--output', lake, ...CLOCK, '--coordinator', 'redis://:pw-Secret-42@127.0.0.1:9', '--full-refresh'], { cwd });
    expect(withRedis.code).toBe(2);
    expect(withRedis.stderr).toContain(`--coordinator 'redis://:***@127.0.0.1:9' --full-refresh --yes`);
    expect(withRedis.stderr).not.toContain('pw-Secret-42');
  }, 60_000);
});
