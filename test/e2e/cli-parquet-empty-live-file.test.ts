/**
 * A live Parquet file emptied (a disk that lost it, a restore cut short) was said in the readers'
 * own words: the run's merge "Empty input provided or not a Uint8Array.", inspect "Offset is
 * outside the bounds of the DataView". Said as a file too short to be Parquet, as a file cut short
 * further in is said as a corrupt footer.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });

const run = (out: string, clock: string) => runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--output', out, '--clock', clock, '-q']);
const PROBLEM = 'not a Parquet file: 0 bytes, fewer than any holds (cut short?)';

describe('an emptied live Parquet file', () => {
  it('is said as too short to be Parquet by the merge into its partition, inspect and repair', async () => {
    const out = join(tempDir(), 'lake');
    const first = await run(out, '2026-11-20T12:00:00Z');
    expect(first.code, first.stderr).toBe(0);
    const folder = join(out, 'kline', 'interval=1m', 'year=2026', 'date=2026-11-20');
    const [file] = readdirSync(folder);
    writeFileSync(join(folder, file!), '');

    const next = await run(out, '2026-11-20T12:05:00Z');
    expect(next.code, next.stderr).toBe(1);
    expect(next.stderr).toContain(`kline: kline/interval=1m/year=2026/date=2026-11-20/${file} in ${out} cannot be read, the file is damaged (${PROBLEM})`);
    expect(next.stderr).toContain(`quotelake repair --output ${out} --dry-run`);

    const inspect = await runCli(['inspect', out]);
    expect(inspect.code).toBe(1);
    expect(inspect.stdout).toContain(`${file}: unreadable (${PROBLEM})`);

    const repair = await runCli(['repair', '--output', out, '--dry-run']);
    expect(repair.code, repair.stderr).toBe(0);
    expect(repair.stdout).toMatch(new RegExp(`${file}: damaged \\(0 of \\d+ bytes: not a Parquet file: 0 bytes`));
  });
});
