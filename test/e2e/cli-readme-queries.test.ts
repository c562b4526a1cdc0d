/**
 * The README's DuckDB queries of the tour, as written there, on a lake the built CLI wrote in two
 * runs a few seconds apart (the second merging into the first's partitions): the plain glob sees
 * the replaced files too during their grace, as the README warns, and the manifest recipe reads
 * each row once, the rows the lake's own reader returns.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { duck } from '../sinks/helpers.js';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

/** The `sql` code block of the README that follows `after`, with `output/` pointed at `lake/`. */
function readmeSql(after: string, lake: string): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const from = readme.indexOf(after);
  expect(from, `README has no "${after}"`).toBeGreaterThan(0);
  const block = /```sql\n([\s\S]*?)```/.exec(readme.slice(from))![1]!;
  return block
    .replaceAll("'output/", `'${lake}/`)
    .split(/;\n/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement !== '');
}

const total = (rows: readonly Record<string, unknown>[], column: string) => rows.reduce((n, r) => n + Number(r[column]), 0);

describe("the README's DuckDB queries", () => {
  it('a glob counts replaced files during their grace; the manifest recipe counts each row once', async () => {
    const dir = tempDir('ql-readme-sql-');
    const lake = join(dir, 'output');
    for (const clock of ['2026-11-20T12:00:00Z', '2026-11-20T12:05:00Z']) {
      const r = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,EURUSD', '--since', '2h', '--output', lake, '--clock', clock, '-q']);
      expect(r.code, r.stderr).toBe(0);
    }
    const held = await readLakeRecords(lake, 'kline', 'parquet');
    // The tour's first query (the others read datasets this lake has not), and the recipe whole.
    const glob = await duck(readmeSql('Query it with DuckDB', lake)[0]!);
    const exact = await duck(readmeSql("read the files the dataset's manifest lists", lake).join(';\n'));
    expect(total(exact, 'bars')).toBe(held.length);
    expect(exact.map((r) => `${r.code} ${r.interval}`)).toEqual([...new Set(held.map((r) => `${r.code} ${r.interval}`))].sort());
    // The second run merged into the first's partitions: its replaced files are still on disk.
    expect(total(glob, 'bars')).toBeGreaterThan(held.length);
  }, 30_000);

  // Monday 2026-11-23 and Wednesday 2026-11-25, 16:00 UTC (AAPL.US in session): the demo's three days
  // begin on Friday 16:00 and Sunday 16:00, after Friday's daily bar opened (05:00 UTC) and before
  // Monday's did.
  it.each([
    ['2026-11-23T16:00:00Z', []],
    ['2026-11-25T16:00:00Z', ['2026-11-24 05:00:00+00']],
  ])("the tour's daily close of AAPL.US at %s: as the README's comment says", async (clock, opens) => {
    const lake = join(tempDir('ql-readme-close-'), 'output');
    const r = await runCli(['run', 'demo', '--output', lake, '--clock', clock, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const close = readmeSql('Query it with DuckDB', lake)[1]!;
    expect(close).toContain("code = 'AAPL.US' AND interval = '1d' AND final");
    const rows = await duck(close);
    expect(rows.map((row) => row.ts)).toEqual(opens);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain("-- the close of AAPL.US's last finished day in the three days");
  }, 60_000);
});
