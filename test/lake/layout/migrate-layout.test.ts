/**
 * The migration of a lake written by quotelake 0.1.0 (test/fixtures/lake-0.1.0) to layout 2:
 * rows read back equal, every reader's one-liner works, a crash after any step is finished by the
 * next start, a newer layout is refused.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FormatVersionError } from '../../../src/core/errors.js';
import { ensureLayout, layoutState, describeMigration, type MigrationHooks } from '../../../src/lake/layout/index.js';
import { copyOfFixture, duckDigest, FIXTURE_TABLES, layout1Rows, layout2Rows } from './fixture-lake.js';

const NOW = new Date('2026-11-21T08:00:00.000Z');
let expected: Map<string, string[]>;

beforeAll(async () => {
  expected = await layout1Rows();
});

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function allFiles(dir: string): Promise<string[]> {
  return ((await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1))).sort();
}

/** What every migrated lake must look like. */
async function expectMigrated(dir: string): Promise<void> {
  expect(await layout2Rows(dir)).toEqual(expected);
  const files = await allFiles(dir);
  // No bookkeeping left inside a dataset folder, no 0.1.0 staging, no migration leftovers.
  expect(files.filter((f) => /(^|\/)_manifest|^\.staging|^_quotelake\/(migration|staging)/.test(f))).toEqual([]);
  expect(files.filter((f) => f.startsWith('_quotelake/')).sort()).toEqual([
    '_quotelake/layout.json',
    ...FIXTURE_TABLES.map(([d, f]) => `_quotelake/manifests/${d}.${f}.json`).sort(),
  ]);
  expect(JSON.parse(await readFile(join(dir, '_quotelake/layout.json'), 'utf8'))).toMatchObject({ version: 2, migratedFrom: 1 });
  for (const [dataset, format] of FIXTURE_TABLES) {
    const m = JSON.parse(await readFile(join(dir, `_quotelake/manifests/${dataset}.${format}.json`), 'utf8')) as { version: number; retired: unknown[]; files: { path: string }[] };
    expect(m.version).toBe(2);
    expect(m.retired).toEqual([]);
    // Every data file of the format on disk is listed, and nothing else is there.
    const onDisk = files.filter((f) => f.startsWith(`${dataset}/`) && f.endsWith(`.${format}`)).map((f) => f.slice(dataset.length + 1));
    expect(onDisk).toEqual(m.files.map((f) => f.path).sort());
  }
}

describe('migrating the 0.1.0 fixture lake to layout 2', () => {
  it('rolls the pending 0.1.0 journal forward, rewrites kline and halt files, moves the manifests; rows unchanged', async () => {
    const dir = await copyOfFixture();
    expect(await layoutState(dir)).toEqual({ version: 1, migrationPending: false, hasLayoutFile: false });

    const dry = await ensureLayout(dir, { now: NOW, dryRun: true });
    // What it would do is what it does: the file the pending journal removes is no orphan of the lake's.
    expect(dry).toMatchObject({ dryRun: true, journalsRolledForward: 1, filesRewritten: 10, filesKept: 5, manifestsMoved: 5, orphansRemoved: 0 });
    expect(describeMigration(dry!)).toBe(
      'would migrate the lake from layout 1 (quotelake 0.1.0) to layout 2: 10 file(s) rewritten without their hive-key column, 5 kept, 5 manifest(s) moved to _quotelake/manifests/, 1 pending 0.1.0 commit(s) rolled forward',
    );
    expect(await layoutState(dir)).toMatchObject({ version: 1 }); // a dry run changes nothing

    const report = await ensureLayout(dir, { now: NOW });
    expect(report).toMatchObject({ from: 1, to: 2, dryRun: false, journalsRolledForward: 1, filesRewritten: 10, filesKept: 5, manifestsMoved: 5, orphansRemoved: 0, resumed: false });
    expect(describeMigration(report!)).toBe(
      'migrated the lake from layout 1 (quotelake 0.1.0) to layout 2: 10 file(s) rewritten without their hive-key column, 5 kept, 5 manifest(s) moved to _quotelake/manifests/, 1 pending 0.1.0 commit(s) rolled forward',
    );
    await expectMigrated(dir);
    // A second start finds nothing to do.
    expect(await ensureLayout(dir, { now: NOW })).toBeUndefined();
  });

  it('a file no manifest lists (left by a killed 0.1.0 run) is counted alike by the dry run and the migration, and removed', async () => {
    const dir = await copyOfFixture();
    const orphan = join(dir, 'depth/date=2026-11-20/part-20261120T110000Z-killed-00001.parquet');
    await writeFile(orphan, 'PAR1 cut short');
    expect(await ensureLayout(dir, { now: NOW, dryRun: true })).toMatchObject({ orphansRemoved: 1 });
    expect(await ensureLayout(dir, { now: NOW })).toMatchObject({ orphansRemoved: 1 });
    await expect(stat(orphan)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('DuckDB reads every migrated dataset in one hive glob: the same rows as 0.1.0 wrote, no column twice', async () => {
    const before = await copyOfFixture();
    const after = await copyOfFixture();
    await ensureLayout(after, { now: NOW });
    const { rollForwardLayout1, layout1Journals, layout1ManifestRelPath } = await import('../../../src/lake/layout/layout-1.js');
    for (const { path, journal } of await layout1Journals(before)) await rollForwardLayout1(before, path, journal);
    for (const [dataset, format] of FIXTURE_TABLES) {
      if (format !== 'parquet') continue;
      const listed = (JSON.parse(await readFile(join(before, layout1ManifestRelPath(dataset, format)), 'utf8')) as { files: { path: string }[] }).files;
      const old = await duckDigest(dataset, `read_parquet([${listed.map((f) => `'${join(before, dataset, f.path)}'`).join(', ')}], hive_partitioning = false)`);
      const now = await duckDigest(dataset, `read_parquet('${after}/${dataset}/**/*.parquet', hive_partitioning = true)`);
      expect(now, dataset).toEqual(old);
      expect(now.n).toBe(expected.get(`${dataset}.parquet`)!.length);
    }
  });

  const steps: NonNullable<Parameters<NonNullable<MigrationHooks['afterStep']>>[0]>[] = ['journals', 'plan', 'rewrite', 'manifests', 'remove', 'layout'];
  it.each(steps)('a crash right after step "%s" is finished by the next start: never half-moved', async (step) => {
    const dir = await copyOfFixture();
    const crash = new Error(`killed after ${step}`);
    await expect(
      ensureLayout(dir, {
        now: NOW,
        hooks: {
          afterStep: (s) => {
            if (s === step) throw crash;
          },
        },
      }),
    ).rejects.toBe(crash);
    const state = await layoutState(dir);
    // Until the journal is gone the lake is still "being migrated", whatever the step.
    expect(state.version === 1 || state.migrationPending).toBe(true);
    const report = await ensureLayout(dir, { now: NOW });
    expect(report).toMatchObject({ from: 1, to: 2, filesRewritten: 10, resumed: step !== 'journals' });
    await expectMigrated(dir);
  });

  it('a crash between a staged rewrite and its rename is finished too', async () => {
    const dir = await copyOfFixture();
    await expect(ensureLayout(dir, { now: NOW, hooks: { afterStep: (s) => { if (s === 'plan') throw new Error('killed'); } } })).rejects.toThrow('killed');
    // Stage one file by hand the way step 2 would, then "die" before the rename.
    const journal = JSON.parse(await readFile(join(dir, '_quotelake/migration/journal.json'), 'utf8')) as { datasets: { rewrites: { from: string; staged: string }[] }[] };
    const first = journal.datasets.flatMap((d) => d.rewrites)[0]!;
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, first.staged, '..'), { recursive: true });
    await writeFile(join(dir, first.staged + '.tmp-partial'), 'half');
    await ensureLayout(dir, { now: NOW });
    await expectMigrated(dir);
  });
});

describe('layout and format versions', () => {
  it('a lake of a future layout is refused before anything is touched, naming the version and the remedy', async () => {
    const dir = await copyOfFixture();
    await ensureLayout(dir, { now: NOW });
    await writeFile(join(dir, '_quotelake/layout.json'), JSON.stringify({ version: 3, quotelakeVersion: '9.0.0', updatedAt: NOW.toISOString() }));
    const before = await allFiles(dir);
    const error = await ensureLayout(dir, { now: NOW }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatVersionError);
    expect(error).toMatchObject({ code: 'QL_FORMAT_VERSION', version: 3, newest: 2 });
    expect((error as Error).message).toMatch(/layout\.json: lake layout version 3 is newer than this quotelake reads \(newest 2\).*upgrade quotelake/);
    expect(await allFiles(dir)).toEqual(before);
  });

  it('a new output gets a layout file once it holds a lake, and none while empty', async () => {
    const dir = await copyOfFixture();
    await ensureLayout(dir, { now: NOW });
    const { rm } = await import('node:fs/promises');
    await rm(join(dir, '_quotelake/layout.json'));
    expect(await layoutState(dir)).toEqual({ version: 2, migrationPending: false, hasLayoutFile: false });
    expect(await ensureLayout(dir, { now: NOW })).toBeUndefined();
    expect(JSON.parse(await readFile(join(dir, '_quotelake/layout.json'), 'utf8'))).toMatchObject({ version: 2 });
    expect(await exists(join(dir, '_quotelake/layout.json'))).toBe(true);
  });
});
