/**
 * Where layout 1 (quotelake 0.1.0) kept its bookkeeping, and its commit journal, rolled forward
 * with 0.1.0's own semantics. Read only by the migration to layout 2.
 *
 *   <output>/<dataset>/_manifest.json          Parquet manifest (`_manifest.<format>.json` otherwise)
 *   <output>/.staging/<run>/<dataset>.<format>.journal.json   and the run's staged files
 */
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { makeDir } from '../../core/make-dir.js';
import { dirname, join, posix } from 'node:path';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { SinkError } from '../../core/errors.js';
import { insideRoot } from '../partition-path.js';

export const LAYOUT1_STAGING_DIR = '.staging';
export const LAYOUT1_FORMATS = ['parquet', 'arrow'] as const;

export function layout1ManifestRelPath(dataset: string, format: string): string {
  return posix.join(dataset, format === 'parquet' ? '_manifest.json' : `_manifest.${format}.json`);
}

/** A 0.1.0 journal exactly as b20e76f wrote it. */
export interface Layout1Journal {
  readonly version: 1;
  readonly runId: string;
  readonly dataset: string;
  readonly format: string;
  readonly add: readonly { readonly from: string; readonly to: string }[];
  readonly remove: readonly string[];
  readonly manifest: unknown;
}

/** Whether a file or folder is there (any error reads as no). */
export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The journals a killed 0.1.0 run left, with their paths (an unparsable one never began: skipped). */
export async function layout1Journals(outputDir: string): Promise<{ path: string; journal: Layout1Journal }[]> {
  const root = join(outputDir, LAYOUT1_STAGING_DIR);
  let runs: string[];
  try {
    runs = await readdir(root);
  } catch {
    return [];
  }
  const out: { path: string; journal: Layout1Journal }[] = [];
  for (const run of runs.sort()) {
    let names: string[];
    try {
      names = await readdir(join(root, run));
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n.endsWith('.journal.json')).sort()) {
      const path = join(root, run, name);
      try {
        const journal = JSON.parse(await readFile(path, 'utf8')) as Layout1Journal;
        if (journal.version !== 1) throw new SinkError(`${path}: a layout-1 lake holds a commit journal of version ${String(journal.version)}`, 'commit');
        out.push({ path, journal });
      } catch (error) {
        if (error instanceof SinkError) throw error;
      }
    }
  }
  return out;
}

/** 0.1.0's roll-forward: idempotent (a done rename or removal is skipped). */
export async function rollForwardLayout1(outputDir: string, path: string, journal: Layout1Journal): Promise<void> {
  for (const { from, to } of journal.add) {
    const src = insideRoot(outputDir, from);
    const dst = insideRoot(outputDir, to);
    if (await exists(src)) {
      await makeDir(dirname(dst));
      await rename(src, dst);
    } else if (!(await exists(dst))) {
      throw new SinkError(`0.1.0 commit journal of run ${journal.runId}: neither ${from} nor ${to} exists`, 'commit');
    }
  }
  for (const p of journal.remove) await rm(insideRoot(outputDir, p), { force: true });
  await writeFileAtomic(insideRoot(outputDir, layout1ManifestRelPath(journal.dataset, journal.format)), JSON.stringify(journal.manifest, null, 1));
  await rm(path, { force: true });
}
