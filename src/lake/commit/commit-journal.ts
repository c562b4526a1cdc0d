/**
 * The commit journal: the intent of a commit, written atomically before anything becomes visible.
 * Rolling it forward is idempotent (a rename whose source is gone and whose target exists is done;
 * a removal of a missing file is done), so a crash at any step is finished by the next start.
 *
 * Order: add the new files, then remove the replaced ones, then write the manifest, then delete the
 * journal. Readers of the manifest switch from the old set to the new set in one rename; a reader
 * that globs the tree may, during the few renames of a commit, see a replaced file beside its
 * replacement, never a missing or half-written one.
 */
import { readdir, readFile, rename, rm, stat, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SinkError } from '../../core/errors.js';
import { syncDir, writeFileAtomic } from '../../core/atomic-write.js';
import { journalRelPath, STAGING_DIR } from '../lake-paths.js';
import { manifestPath, type Manifest } from './manifest.js';
import { insideRoot } from '../partition-path.js';
import { upgradeToNewest } from '../../core/version-steps.js';
import { journalVersions } from './journal-versions.js';

export interface CommitJournal {
  readonly version: 2;
  readonly runId: string;
  readonly dataset: string;
  readonly format: string;
  /** Paths relative to the output root. */
  readonly add: readonly { readonly from: string; readonly to: string }[];
  /** Paths relative to the output root, no longer live after this commit. */
  readonly retire: readonly string[];
  readonly manifest: Manifest;
}

export function journalPath(outputDir: string, runId: string, dataset: string, format: string): string {
  return join(outputDir, journalRelPath(runId, dataset, format));
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function writeJournal(outputDir: string, journal: CommitJournal): Promise<string> {
  const path = journalPath(outputDir, journal.runId, journal.dataset, journal.format);
  await writeFileAtomic(path, JSON.stringify(journal));
  return path;
}

/** Hooks for tests that simulate a crash between two steps. */
export interface RollForwardHooks {
  afterStep?(step: string): void | Promise<void>;
}

export async function rollForward(outputDir: string, journal: CommitJournal, hooks: RollForwardHooks = {}): Promise<void> {
  const dirs = new Set<string>();
  for (const { from, to } of journal.add) {
    const src = insideRoot(outputDir, from);
    const dst = insideRoot(outputDir, to);
    if (await exists(src)) {
      await mkdir(dirname(dst), { recursive: true });
      await rename(src, dst);
      dirs.add(dirname(dst));
    } else if (!(await exists(dst))) {
      throw new SinkError(`commit journal of run ${journal.runId}: neither ${from} nor ${to} exists`, 'commit');
    }
    await hooks.afterStep?.(`add:${to}`);
  }
  for (const dir of dirs) await syncDir(dir);
  for (const path of journal.retire) {
    await rm(insideRoot(outputDir, path), { force: true });
    await hooks.afterStep?.(`remove:${path}`);
  }
  await writeFileAtomic(manifestPath(outputDir, journal.dataset, journal.format), JSON.stringify(journal.manifest, null, 1));
  await hooks.afterStep?.('manifest');
  await rm(journalPath(outputDir, journal.runId, journal.dataset, journal.format), { force: true });
  await hooks.afterStep?.('journal');
}

/** Every journal left under `<output>/_quotelake/staging/*` for this dataset and format. */
export async function pendingJournals(outputDir: string, dataset: string, format: string): Promise<CommitJournal[]> {
  const root = join(outputDir, STAGING_DIR);
  let runs: string[];
  try {
    runs = await readdir(root);
  } catch {
    return [];
  }
  const out: CommitJournal[] = [];
  for (const run of runs.sort()) {
    const path = join(root, run, `${dataset}.${format}.journal.json`);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A journal is written atomically, so an unparsable one was never complete: its commit never began.
      await rm(path, { force: true });
      continue;
    }
    // An older journal is read in the current shape; a newer one is refused (never rolled half).
    out.push(upgradeToNewest(parsed, journalVersions(path), path) as unknown as CommitJournal);
  }
  return out;
}
