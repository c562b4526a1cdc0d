/**
 * A live Arrow file emptied (a disk that lost it, a restore cut short). apache-arrow reads zero bytes
 * as a table of no rows and no columns, so the next merge into its partition failed with
 * "kline: commit failed: Cannot read properties of undefined (reading 'type')" and the hint to run
 * the same command again, and a file cut short was said as apache-arrow's TypeError. Both must be
 * said as a damaged file, as a Parquet one is, with the repair command for the output.
 */
import { readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const run = (out: string, clock: string) => runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--format', 'arrow', '--output', out, '--clock', clock, '-q']);

describe('a damaged live Arrow file', () => {
  it.each([
    ['emptied', 0, 'not an Arrow IPC file: 0 bytes, fewer than any holds (cut short?)'],
    ['cut short', 200, 'not a whole Arrow IPC file: no ARROW1 magic at its end (cut short?)'],
  ])('%s: the merge into its partition names it damaged and the repair command (exit 1)', async (_, size, problem) => {
    const out = join(tempDir(), 'lake');
    const first = await run(out, '2026-11-20T12:00:00Z');
    expect(first.code, first.stderr).toBe(0);
    const folder = join(out, 'kline', 'interval=1m', 'year=2026', 'date=2026-11-20');
    const [file] = readdirSync(folder);
    if (size === 0) writeFileSync(join(folder, file!), '');
    else truncateSync(join(folder, file!), size);

    const next = await run(out, '2026-11-20T12:05:00Z');
    expect(next.code, next.stderr).toBe(1);
    expect(next.stderr).toContain(`kline: kline/interval=1m/year=2026/date=2026-11-20/${file} in ${out} cannot be read`);
    expect(next.stderr).toContain(`the file is damaged (${problem})`);
    expect(next.stderr).toContain(`quotelake repair --output ${out} --dry-run`);
    expect(next.stderr).not.toContain('Cannot read properties');

    const inspect = await runCli(['inspect', out]);
    expect(inspect.code).toBe(1);
    expect(inspect.stdout).toContain(`${file}: unreadable (${problem})`);
  });
});
