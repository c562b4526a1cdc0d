/**
 * `quotelake vacuum` on a Delta table whose `_delta_log/` lost every version (its manifest records
 * `table: delta`). Before, it took the table for none (`nothing to vacuum: no Delta table in …`,
 * exit 0), so a scheduled vacuum hid the damage. Now it refuses as a commit and `compact` do
 * (QL_DELTA_LOG, exit 1), before deleting anything, with the hint naming `repair --yes`; after the
 * repair it vacuums the table. The built CLI and its embedded emulator at a frozen instant.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFiles, runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T00:00:00Z';
const LATER = '2026-11-28T00:00:00Z';

describe('vacuum on a Delta table whose log lost every version', () => {
  it('exit 1 naming the lost log and repair --yes, nothing deleted; after the repair it vacuums', async () => {
    const out = tempDir('ql-vacuum-lost-log-');
    const run = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '6h', '--output', out, '--clock', CLOCK, '--table', 'delta', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const log = join(out, 'kline/_delta_log');
    for (const name of readdirSync(log)) rmSync(join(log, name));
    const files = allFiles(out).sort();

    const said = `quotelake: ${out}/kline is a Delta table (its manifest records it) whose _delta_log/ holds no version any more: Delta readers no longer open it, and a vacuum cannot tell its live files from orphans: nothing was deleted\n` +
      `  hint: restore kline/_delta_log/ from a backup of the output, or write a new log naming the manifest's 4 live files: "quotelake repair --output ${out} --dry-run" shows it, --yes writes it; then vacuum again\n`;
    for (const extra of [[], ['--dry-run'], ['--dataset', 'kline'], ['--retention', '0h', '--force']]) {
      const vacuum = await runCli(['vacuum', '--output', out, '--clock', LATER, ...extra]);
      expect(vacuum.code, `${extra.join(' ')}: ${vacuum.stderr}`).toBe(1);
      expect(vacuum.stdout).toBe('');
      expect(vacuum.stderr).toBe(said);
      expect(allFiles(out).sort()).toEqual(files);
    }
    // Another dataset of the lake holds no table: still nothing to vacuum there.
    const depth = await runCli(['vacuum', '--output', out, '--dataset', 'depth', '--clock', LATER]);
    expect([depth.code, depth.stdout]).toEqual([0, `nothing to vacuum: no Delta table depth in ${out}\n`]);

    // The refused vacuum released the output: the repair takes it, and the vacuum then runs.
    const fixed = await runCli(['repair', '--output', out, '--yes', '--clock', LATER]);
    expect(fixed.code, fixed.stderr).toBe(0);
    const vacuum = await runCli(['vacuum', '--output', out, '--clock', LATER]);
    expect(vacuum.code, vacuum.stderr).toBe(0);
    expect(vacuum.stdout).toBe('kline: Delta version 0: deleted 0 unreferenced files\n');
  }, 90_000);
});
