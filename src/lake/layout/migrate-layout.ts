/**
 * Layout 1 (quotelake 0.1.0) → layout 2, never left half-moved:
 *
 *   0. roll forward any pending 0.1.0 commit journal (0.1.0's semantics, idempotent)
 *   1. plan, and write the plan atomically as the migration journal `_quotelake/migration/journal.json`
 *   2. rewrite every kline/halt data file without its hive-key column (interval, exchange) under a
 *      new name: encoded through the lake's codecs into `_quotelake/migration/staged/`, then renamed
 *      beside the old file (a glob reader sees old and new side by side for this step only)
 *   3. write every manifest, version 2, under `_quotelake/manifests/`, listing the new files
 *   4. remove the old files, files no manifest listed, the old manifests and `.staging/`
 *   5. write `_quotelake/layout.json`, then delete the journal
 *
 * Every step is idempotent and driven by the journal, so a process killed at any point is finished
 * by the next start (a run, or `quotelake migrate`), which finds the journal and resumes.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { makeDir } from '../../core/make-dir.js';
import { dirname, join, posix } from 'node:path';
import { makeData, RecordBatch, Struct, Table } from 'apache-arrow';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { SinkError } from '../../core/errors.js';
import { DATASETS } from '../../core/records.js';
import { datasetSchema, PATH_ONLY_COLUMNS, SCHEMA_VERSION } from '../../core/schemas.js';
import type { ManifestFile } from '../commit/manifest.js';
import { manifestPath, type Manifest } from '../commit/manifest.js';
import { MANIFEST_VERSIONS } from '../commit/manifest-versions.js';
import { upgradeToNewest } from '../../core/version-steps.js';
import { datasetSpec } from '../datasets/index.js';
import type { TableEncoder } from '../encode/table-encoder.js';
import { LAKE_DIR } from '../lake-paths.js';
import { PACKAGE_VERSION } from '../package-version.js';
import { decimalTypeOf } from '../columns/decimal-type-of.js';
import { tableCodec } from '../table-codec.js';
import { insideRoot } from '../partition-path.js';
import { exists, layout1Journals, layout1ManifestRelPath, LAYOUT1_FORMATS, LAYOUT1_STAGING_DIR, rollForwardLayout1 } from './layout-1.js';
import { writeLayoutFile } from './layout-file.js';

export const MIGRATION_DIR = posix.join(LAKE_DIR, 'migration');
export const MIGRATION_JOURNAL = posix.join(MIGRATION_DIR, 'journal.json');
const MIGRATION_STAGED = posix.join(MIGRATION_DIR, 'staged');

/** One data file rewritten without its hive-key column. Paths relative to the output root. */
export interface Rewrite {
  readonly from: string;
  readonly staged: string;
  readonly to: string;
}

export interface MigrationDataset {
  readonly dataset: string;
  readonly format: string;
  /** The layout-1 manifest, relative to the output root. */
  readonly manifest: string;
  readonly rewrites: readonly Rewrite[];
  /** Files kept as they are (their columns were already right). */
  readonly kept: number;
}

export interface MigrationJournal {
  readonly version: 1;
  readonly from: 1;
  readonly to: 2;
  readonly startedAt: string;
  readonly datasets: readonly MigrationDataset[];
  /** Data files no manifest listed (what a killed 0.1.0 run left): removed, as 0.1.0's recover did. */
  readonly orphans: readonly string[];
}

export interface MigrationReport {
  readonly from: number;
  readonly to: number;
  readonly dryRun: boolean;
  /** Pending 0.1.0 commit journals rolled forward (or that would be). */
  readonly journalsRolledForward: number;
  readonly filesRewritten: number;
  readonly filesKept: number;
  readonly manifestsMoved: number;
  readonly orphansRemoved: number;
  /** True when an interrupted migration was found and finished. */
  readonly resumed: boolean;
}

/** For tests that simulate a crash after a step. */
export interface MigrationHooks {
  afterStep?(step: 'journals' | 'plan' | 'rewrite' | 'manifests' | 'remove' | 'layout' | 'done'): void | Promise<void>;
}

async function encoderFor(format: string): Promise<TableEncoder> {
  const codec = await tableCodec(format);
  if (codec === undefined) throw new SinkError(`layout migration: no codec for format ${JSON.stringify(format)}`, 'commit');
  return codec;
}

/** The new name of a rewritten file: a different name, so a manifest never names two contents. */
function rewrittenName(path: string): string {
  const dot = path.lastIndexOf('.');
  return `${path.slice(0, dot)}-l2${path.slice(dot)}`;
}

async function listFiles(dir: string, extension: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(extension) && !e.name.startsWith('.') && !e.name.startsWith('_'))
    .map((e) => join(e.parentPath, e.name));
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

/** What layout-1 bookkeeping an output holds (any of it makes the lake layout 1). */
export async function hasLayout1Markers(outputDir: string): Promise<boolean> {
  if (await exists(join(outputDir, LAYOUT1_STAGING_DIR))) return true;
  for (const dataset of DATASETS) {
    for (const format of LAYOUT1_FORMATS) if (await exists(join(outputDir, layout1ManifestRelPath(dataset, format)))) return true;
  }
  return false;
}

export async function hasMigrationJournal(outputDir: string): Promise<boolean> {
  return exists(join(outputDir, MIGRATION_JOURNAL));
}

/**
 * Plan from the layout-1 manifests as they are now (after journals are rolled forward). A dry run,
 * which rolls nothing forward, gives the manifests the pending journals would leave and the files
 * they would remove (not orphans: the roll-forward removes them, as the migration then does not).
 */
async function plan(
  outputDir: string,
  now: Date,
  pendingManifests: ReadonlyMap<string, unknown> = new Map(),
  pendingRemoves: ReadonlySet<string> = new Set(),
): Promise<MigrationJournal> {
  const datasets: MigrationDataset[] = [];
  const orphans: string[] = [];
  for (const dataset of DATASETS) {
    for (const format of LAYOUT1_FORMATS) {
      const rel = layout1ManifestRelPath(dataset, format);
      const path = join(outputDir, rel);
      const raw = pendingManifests.get(rel) ?? ((await exists(path)) ? await readJson(path) : undefined);
      if (raw === undefined) continue;
      const v1 = upgradeToNewest(raw, MANIFEST_VERSIONS, path) as unknown as Manifest;
      const rewrite = PATH_ONLY_COLUMNS[dataset].length > 0;
      const rewrites: Rewrite[] = [];
      for (const f of rewrite ? v1.files : []) {
        const to = posix.join(dataset, rewrittenName(f.path));
        rewrites.push({ from: posix.join(dataset, f.path), staged: posix.join(MIGRATION_STAGED, to), to });
      }
      datasets.push({ dataset, format, manifest: rel, rewrites, kept: rewrite ? 0 : v1.files.length });
      const listed = new Set(v1.files.map((f) => join(outputDir, dataset, f.path)));
      const extension = (await encoderFor(format)).extension;
      for (const file of await listFiles(join(outputDir, dataset), extension)) {
        const key = posix.relative(outputDir.split('\\').join('/'), file.split('\\').join('/'));
        if (!listed.has(file) && !pendingRemoves.has(key)) orphans.push(key);
      }
    }
  }
  return { version: 1, from: 1, to: 2, startedAt: now.toISOString(), datasets, orphans: orphans.sort() };
}

/** One layout-1 file → the same rows without the path-only columns, staged atomically. */
async function rewriteFile(outputDir: string, dataset: string, format: string, rewrite: Rewrite): Promise<void> {
  const encoder = await encoderFor(format);
  const table = encoder.decode(await readFile(insideRoot(outputDir, rewrite.from)));
  const spec = datasetSpec(dataset);
  // The partition path below the dataset folder carries the hive keys the new file leaves out.
  const partition = posix.dirname(posix.relative(dataset, rewrite.from));
  const rows = spec.fromTable(table, partition);
  const decimal = decimalTypeOf(table.schema);
  const schema = datasetSchema(dataset as never, decimal);
  const children = spec.columns(rows as never, decimal);
  const out = new Table([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children }))]);
  const metadata = new Map<string, string>();
  for (const [k, v] of table.schema.metadata) if (!k.startsWith('ARROW:')) metadata.set(k, v);
  metadata.set('quotelake.schema_version', SCHEMA_VERSION);
  metadata.set('quotelake.layout_version', '2');
  const staged = insideRoot(outputDir, rewrite.staged);
  await makeDir(dirname(staged));
  await writeFileAtomic(staged, encoder.encode(out, metadata));
}

async function stepRewrite(outputDir: string, journal: MigrationJournal, hooks: MigrationHooks): Promise<void> {
  for (const d of journal.datasets) {
    for (const r of d.rewrites) {
      const to = insideRoot(outputDir, r.to);
      if (await exists(to)) continue;
      const staged = insideRoot(outputDir, r.staged);
      if (!(await exists(staged))) await rewriteFile(outputDir, d.dataset, d.format, r);
      await rename(staged, to);
    }
  }
  await hooks.afterStep?.('rewrite');
}

async function stepManifests(outputDir: string, journal: MigrationJournal, now: Date): Promise<void> {
  for (const d of journal.datasets) {
    const oldPath = insideRoot(outputDir, d.manifest);
    // Gone: step 4 already ran for it, so its version-2 manifest was written before.
    if (!(await exists(oldPath))) continue;
    const v1 = upgradeToNewest(await readJson(oldPath), MANIFEST_VERSIONS, oldPath) as unknown as Manifest;
    const renamed = new Map(d.rewrites.map((r) => [posix.relative(d.dataset, r.from), posix.relative(d.dataset, r.to)]));
    const files: ManifestFile[] = [];
    for (const f of v1.files) {
      const to = renamed.get(f.path);
      if (to === undefined) {
        files.push(f);
        continue;
      }
      const bytes = await readFile(insideRoot(outputDir, posix.join(d.dataset, to)));
      files.push({ path: to, rows: f.rows, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex'), ranges: f.ranges });
    }
    const manifest: Manifest = {
      version: 2,
      dataset: d.dataset,
      format: d.format,
      schemaVersion: SCHEMA_VERSION,
      // The quotelake that wrote this manifest (the files keep their own quotelake.version).
      quotelakeVersion: PACKAGE_VERSION,
      updatedAt: now.toISOString(),
      files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      retired: [],
    };
    await writeFileAtomic(manifestPath(outputDir, d.dataset, d.format), JSON.stringify(manifest, null, 1));
  }
}

async function stepRemove(outputDir: string, journal: MigrationJournal): Promise<void> {
  for (const d of journal.datasets) for (const r of d.rewrites) await rm(insideRoot(outputDir, r.from), { force: true });
  for (const o of journal.orphans) await rm(insideRoot(outputDir, o), { force: true });
  for (const d of journal.datasets) await rm(insideRoot(outputDir, d.manifest), { force: true });
  await rm(join(outputDir, LAYOUT1_STAGING_DIR), { recursive: true, force: true });
  await rm(join(outputDir, MIGRATION_STAGED), { recursive: true, force: true });
}

function reportOf(journal: MigrationJournal, journals: number, dryRun: boolean, resumed: boolean): MigrationReport {
  return {
    from: journal.from,
    to: journal.to,
    dryRun,
    journalsRolledForward: journals,
    filesRewritten: journal.datasets.reduce((n, d) => n + d.rewrites.length, 0),
    filesKept: journal.datasets.reduce((n, d) => n + d.kept, 0),
    manifestsMoved: journal.datasets.length,
    orphansRemoved: journal.orphans.length,
    resumed,
  };
}

/**
 * Migrate a layout-1 lake (or finish an interrupted migration). The caller holds the output lock.
 * With `dryRun`, nothing is written: the report says what would be done.
 */
export async function migrateLayout1To2(outputDir: string, options: { now: Date; dryRun?: boolean; hooks?: MigrationHooks }): Promise<MigrationReport> {
  const { now, hooks = {} } = options;
  const dryRun = options.dryRun ?? false;
  const journalPath = join(outputDir, MIGRATION_JOURNAL);
  let journal: MigrationJournal | undefined;
  let resumed = false;
  if (await exists(journalPath)) {
    journal = (await readJson(journalPath)) as MigrationJournal;
    if (journal.version !== 1) throw new SinkError(`${journalPath}: migration journal version ${String(journal.version)} is not one this quotelake reads (1)`, 'commit');
    resumed = true;
  }
  const pending = journal ? [] : await layout1Journals(outputDir);
  if (dryRun) {
    // What the journals would leave: their manifests stand in for the dataset's.
    const manifests = new Map(pending.map(({ journal: j }) => [layout1ManifestRelPath(j.dataset, j.format), j.manifest]));
    const removes = new Set(pending.flatMap(({ journal: j }) => j.remove.map((p) => posix.normalize(p))));
    return reportOf(journal ?? (await plan(outputDir, now, manifests, removes)), pending.length, true, resumed);
  }
  if (!journal) {
    for (const { path, journal: j } of pending) await rollForwardLayout1(outputDir, path, j);
    await hooks.afterStep?.('journals');
    journal = await plan(outputDir, now);
    await writeFileAtomic(journalPath, JSON.stringify(journal, null, 1));
    await hooks.afterStep?.('plan');
  }
  await stepRewrite(outputDir, journal, hooks);
  await stepManifests(outputDir, journal, now);
  await hooks.afterStep?.('manifests');
  await stepRemove(outputDir, journal);
  await hooks.afterStep?.('remove');
  await writeLayoutFile(outputDir, now, 1);
  await hooks.afterStep?.('layout');
  await rm(journalPath, { force: true });
  await rm(join(outputDir, MIGRATION_DIR), { recursive: true, force: true });
  await hooks.afterStep?.('done');
  return reportOf(journal, pending.length, false, resumed);
}
