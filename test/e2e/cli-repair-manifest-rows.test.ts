/**
 * A manifest whose record of a live file names other rows than the file holds (edited by hand, its
 * bytes and SHA-256 left as they were): `inspect` calls it a problem (exit 1), so `repair` must name
 * it too and drop it, or the lake stays "damaged" for inspect while repair finds nothing to do.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const WINDOW = ['--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z'];

interface Manifest {
  files: { path: string; rows: number }[];
}

describe('quotelake repair: a manifest record whose rows are not the file\'s', () => {
  it('is named by --dry-run, dropped by --yes, and inspect is clean after', async () => {
    const output = join(tempDir('ql-repair-rows-'), 'out');
    const run = await runCli(['run', 'kline-backfill', ...WINDOW, '--clock', '2026-11-11T12:00:00Z', '--output', output, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const manifestFile = join(output, '_quotelake/manifests/kline.parquet.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    const edited = manifest.files.find((f) => f.path.startsWith('interval=1m/year=2026/date=2026-11-10/'))!;
    const held = edited.rows;
    edited.rows = held + 5;
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));

    const inspected = await runCli(['inspect', output]);
    expect(inspected.code).toBe(1);
    expect(inspected.stdout).toContain(`kline/${edited.path}: ${held} rows, the manifest says ${held + 5}`);

    const look = await runCli(['repair', '--output', output, '--dry-run', '--json']);
    expect(look.code, look.stderr).toBe(0);
    const doc = JSON.parse(look.stdout) as { datasets: { dropped: { key: string; problem: string; rows: number }[] }[] };
    expect(doc.datasets[0]!.dropped).toEqual([
      { key: `kline/${edited.path}`, problem: `holds ${held} rows where the manifest says ${held + 5}: its record was changed since its commit, so the rows it names cannot be trusted`, rows: held + 5, series: ['BTCUSDT'] },
    ]);

    const fixed = await runCli(['repair', '--output', output, '--yes']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('dropped:');
    const after = await runCli(['inspect', output]);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).not.toContain('problem:');
  });
});
