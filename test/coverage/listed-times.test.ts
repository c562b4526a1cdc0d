import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coverageOfOutput } from '../../src/coverage/index.js';
import { manifestPath, type Manifest } from '../../src/lake/commit/manifest.js';
import type { LakeFormat } from '../../src/lake/reader/index.js';
import { klineRows, T0 } from '../sinks/fixtures.js';
import { tempDir } from '../sinks/helpers.js';
import { bars, commitRun } from '../lake/reader/lake-fixture.js';

/** 2025-11-19T17:00Z, 7 hours before midnight: two days of bars, two partitions. */
const START = T0 + 10 * 3600;

/**
 * A backward walk's pages, newest first (each ascending): BTCUSDT every minute for 10 hours,
 * ETHUSDT the same with one hour missing. The sink sorts them by key, so each file's times are
 * runs it lists in the manifest.
 */
async function walkedLake(out: string, format: LakeFormat): Promise<void> {
  const pages = [];
  for (let page = 5; page >= 0; page--) {
    const from = START + page * 100 * 60;
    pages.push(...bars('BTCUSDT', '1m', from, 100, 60));
    pages.push(...bars('ETHUSDT', '1m', from, 100, 60).filter((_, i) => page * 100 + i < 200 || page * 100 + i >= 260));
  }
  await commitRun(out, format, 'walk', klineRows(pages));
}

async function dataFiles(out: string): Promise<string[]> {
  const files = await readdir(join(out, 'kline'), { recursive: true });
  return files.filter((f) => /\.(parquet|arrow)$/.test(f)).map((f) => join(out, 'kline', f));
}

async function editManifest(out: string, format: LakeFormat, edit: (m: Manifest) => Manifest): Promise<void> {
  const path = manifestPath(out, 'kline', format);
  await writeFile(path, JSON.stringify(edit(JSON.parse(await readFile(path, 'utf8')) as Manifest)));
}

describe('coverage from the time runs the manifest lists', () => {
  it.each(['parquet', 'arrow'] as const)('%s: the same report as from the files, without opening one', async (format) => {
    const out = await tempDir();
    await walkedLake(out, format);
    const manifest = JSON.parse(await readFile(manifestPath(out, 'kline', format), 'utf8')) as Manifest;
    expect(manifest.files).toHaveLength(2);
    expect(manifest.files.map((f) => f.times)).toEqual([
      { BTCUSDT: [[START * 1000, 60_000, 420]], ETHUSDT: [[START * 1000, 60_000, 200], [(START + 260 * 60) * 1000, 60_000, 160]] },
      { BTCUSDT: [[(START + 420 * 60) * 1000, 60_000, 180]], ETHUSDT: [[(START + 420 * 60) * 1000, 60_000, 180]] },
    ]);
    // The report read from the files' columns: the manifest without its runs.
    const fromFiles = await tempDir();
    await walkedLake(fromFiles, format);
    await editManifest(fromFiles, format, (m) => ({ ...m, files: m.files.map(({ times: _, ...f }) => f) }));
    const expected = await coverageOfOutput(fromFiles, { format });
    expect(expected.series.map((s) => [s.code, s.bars, s.counts.unexplained])).toEqual([
      ['BTCUSDT', 600, 0],
      ['ETHUSDT', 540, 1],
    ]);

    // Every data file unreadable: the runs alone give the same report, whole lake or a run's range.
    for (const f of await dataFiles(out)) await writeFile(f, 'not a data file');
    expect(await coverageOfOutput(out, { format })).toEqual(expected);
    const from = (START + 150 * 60) * 1000;
    const ranged = { format, series: [{ code: 'ETHUSDT', interval: '1m', from, to: (START + 450 * 60) * 1000 }] };
    expect(await coverageOfOutput(out, ranged)).toEqual(await coverageOfOutput(fromFiles, ranged));
    expect((await coverageOfOutput(out, ranged)).series[0]).toMatchObject({ bars: 241, first: from, counts: { unexplained: 1 } });
  });

  it('reads the file when its listed runs do not add up', async () => {
    const out = await tempDir();
    await walkedLake(out, 'parquet');
    const expected = await coverageOfOutput(out);
    const path = manifestPath(out, 'kline', 'parquet');
    const listed = await readFile(path, 'utf8');
    const damages: ((f: Manifest['files'][number]) => Manifest['files'][number])[] = [
      // One bar fewer than the file's rows.
      (f) => ({ ...f, times: { ...f.times, BTCUSDT: [[f.times!.BTCUSDT![0]![0], 60_000, f.times!.BTCUSDT![0]![2] - 1]] } }),
      // Runs of a code the key ranges do not list, and none of one they do.
      (f) => ({ ...f, times: { ETHUSDT: f.times!.ETHUSDT!, GOLD: f.times!.BTCUSDT! } }),
      // The right count, but not the key range's last bar.
      (f) => ({ ...f, times: { ...f.times, BTCUSDT: [[f.times!.BTCUSDT![0]![0] - 60_000, 60_000, f.times!.BTCUSDT![0]![2]]] } }),
      // Not runs at all.
      (f) => ({ ...f, times: { ...f.times, BTCUSDT: 'all of them' as never } }),
    ];
    for (const damage of damages) {
      await writeFile(path, listed);
      await editManifest(out, 'parquet', (m) => ({ ...m, files: m.files.map(damage) }));
      expect(await coverageOfOutput(out)).toEqual(expected);
    }
    // And it is read indeed: an unreadable file is an error, not a report from the runs.
    for (const f of await dataFiles(out)) await writeFile(f, 'not a data file');
    await expect(coverageOfOutput(out)).rejects.toThrow();
  });
});
