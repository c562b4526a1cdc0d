/**
 * compact, vacuum, repair and migrate given a dataset's folder for --output (`vacuum --output
 * lake/kline`, the way Delta tools take a table's path) said "nothing to vacuum: no Delta table in
 * lake/kline" with exit 0, so a cron line vacuumed nothing every night. They refuse it now as
 * `inspect` does (exit 2, naming the lake), dry run or not, and leave nothing in the folder.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFiles, runCli, tempDir } from './helpers/cli.js';

describe('a maintenance command given a folder inside a lake', () => {
  it('is exit 2 naming the lake, dry run or not; the lake itself is still served', async () => {
    const lake = join(tempDir('ql-maint-dataset-'), 'lake');
    const run = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--clock', '2026-11-20T12:00:00Z', '--table', 'delta', '--output', lake, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const before = allFiles(lake).sort();
    const table = join(lake, 'kline');
    const commands = [['compact'], ['compact', '--dry-run'], ['vacuum'], ['vacuum', '--dry-run'], ['repair', '--yes'], ['repair', '--dry-run'], ['migrate'], ['migrate', '--dry-run']];
    const said = await Promise.all(commands.map((c) => runCli([...c, '--output', table])));
    const refusal = [`quotelake: --output ${table} is a folder inside the lake ${lake}, not an output folder`, `  hint: give the lake's folder: --output ${lake}`];
    expect(said.map((r) => [r.code, r.stdout, r.stderr.split('\n').slice(0, 2)])).toEqual(commands.map(() => [2, '', refusal]));
    // A partition folder deeper down names the same lake.
    const partition = join(table, 'interval=1m');
    const deep = await runCli(['vacuum', '--dry-run', '--output', partition]);
    expect([deep.code, deep.stderr.split('\n')[0]]).toEqual([2, `quotelake: --output ${partition} is a folder inside the lake ${lake}, not an output folder`]);
    expect(allFiles(lake).sort()).toEqual(before);
    expect(readdirSync(table).filter((n) => n.startsWith('.'))).toEqual([]);
    const whole = await runCli(['vacuum', '--dry-run', '--output', lake]);
    expect([whole.code, whole.stdout]).toEqual([0, 'kline: Delta version 0: would delete 0 unreferenced files\n']);
  }, 90_000);
});
