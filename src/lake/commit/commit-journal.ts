/**
 * The commit journal: the intent of a commit, written atomically before anything becomes visible.
 * Rolling it forward is idempotent (a commit of a staged object whose source is gone and whose
 * target exists is done), so a crash at any step is finished by the next start.
 *
 * Order (version 2): add the new files, then publish the manifest, then delete the journal. Nothing
 * is deleted: the files a commit replaces are listed by the new manifest under `retired` and stay
 * on disk for the grace period, so a reader that loaded the previous manifest can still open every
 * file it lists, and a reader of the new manifest never sees a replaced file. Retired files whose
 * grace has passed are dropped from the manifest by a later commit and deleted after it is published.
 *
 * A table with a Delta log adds one step between the files and the manifest: its version is
 * committed from `delta` (delta-intent.ts, which says why that order). A version another writer's
 * commit forbids (DeltaConflictError) undoes the journal: the files it renamed are named by no log
 * and no manifest, so they are deleted with it, and the run's checkpoint was never saved.
 */
import { DeltaConflictError, SinkError } from '../../core/errors.js';
import { journalRelPath, STAGING_DIR } from '../lake-paths.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { writeManifest, type Manifest } from './manifest.js';
import { upgradeToNewest } from '../../core/version-steps.js';
import { journalVersions } from './journal-versions.js';
import { applyDeltaIntent, type DeltaIntent } from './delta-intent.js';
import type { CommitResult } from '../delta/commit-delta-version.js';

export interface CommitJournal {
  readonly version: 2;
  readonly runId: string;
  readonly dataset: string;
  readonly format: string;
  /** Paths relative to the output root. */
  readonly add: readonly { readonly from: string; readonly to: string }[];
  /** Paths relative to the output root: listed as retired by `manifest` (not deleted). */
  readonly retire: readonly string[];
  readonly manifest: Manifest;
  /** The Delta version this commit logs (tables with a log only). */
  readonly delta?: DeltaIntent;
  /**
   * The deciding run's note (RunContext.journalNote) with the commit's row counts (`taken`: rows
   * the sink took; `merged`: of them, rows whose key the lake held): the run that finishes a killed
   * run's commit moves that run's checkpoints and record to what the commit holds.
   */
  readonly note?: Readonly<Record<string, unknown>>;
}

export async function writeJournal(storage: LakeStorage, journal: CommitJournal): Promise<string> {
  const key = journalRelPath(journal.runId, journal.dataset, journal.format);
  await storage.publish(key, JSON.stringify(journal));
  return key;
}

/** Hooks for tests that simulate a crash between two steps. */
export interface RollForwardHooks {
  afterStep?(step: string): void | Promise<void>;
}

/**
 * Throws when the writer may no longer write (its lease on the lake was lost): checked before each
 * step, so a writer paused mid-commit (a frozen VM, a long GC) whose commit another holder has since
 * rolled forward stops at its next step instead of writing over what that holder did.
 */
export type StepGuard = () => void;

/** Returns the Delta version's commit, when this roll logged one (its checkpoint and log cleanup included). */
export async function rollForward(storage: LakeStorage, journal: CommitJournal, hooks: RollForwardHooks = {}, guard: StepGuard = () => undefined): Promise<CommitResult | undefined> {
  try {
    return await rollSteps(storage, journal, hooks, guard);
  } catch (error) {
    // A step that failed because another holder finished this commit meanwhile (a source it had
    // already renamed): the lost lease is the cause to report, not the missing object.
    guard();
    throw error;
  }
}

async function rollSteps(storage: LakeStorage, journal: CommitJournal, hooks: RollForwardHooks, guard: StepGuard): Promise<CommitResult | undefined> {
  for (const { from, to } of journal.add) {
    guard();
    if (await storage.exists(from)) {
      await storage.commit(from, to);
    } else if (!(await storage.exists(to))) {
      throw new SinkError(`commit journal of run ${journal.runId}: neither ${from} nor ${to} exists`, 'commit');
    }
    await hooks.afterStep?.(`add:${to}`);
  }
  let logged: CommitResult | undefined;
  if (journal.delta !== undefined) {
    guard();
    try {
      logged = await applyDeltaIntent(storage, journal.delta, guard);
    } catch (error) {
      if (error instanceof DeltaConflictError) await undoJournal(storage, journal);
      throw error;
    }
    await hooks.afterStep?.('delta');
  }
  guard();
  await writeManifest(storage, journal.manifest);
  await hooks.afterStep?.('manifest');
  guard();
  await storage.delete(journalRelPath(journal.runId, journal.dataset, journal.format));
  await hooks.afterStep?.('journal');
  return logged;
}

/** Drop a journal whose Delta version cannot be committed: its renamed files are referenced nowhere. */
async function undoJournal(storage: LakeStorage, journal: CommitJournal): Promise<void> {
  for (const { from, to } of journal.add) {
    await storage.delete(to);
    await storage.delete(from);
  }
  await storage.delete(journalRelPath(journal.runId, journal.dataset, journal.format));
}

const JOURNAL_SUFFIX = (dataset: string, format: string) => `/${dataset}.${format}.journal.json`;

/**
 * Every journal left under `<output>/_quotelake/staging/*` for this dataset and format (of any
 * dataset and format when `of` is omitted), oldest run first. `readOnly` (inspect): one that cannot
 * be read is skipped, neither deleted nor thrown.
 */
export async function pendingJournals(storage: LakeStorage, of?: { readonly dataset: string; readonly format: string }, options: { readonly readOnly?: boolean } = {}): Promise<CommitJournal[]> {
  const suffix = of === undefined ? '.journal.json' : JOURNAL_SUFFIX(of.dataset, of.format);
  const keys = (await storage.list(`${STAGING_DIR}/`)).filter((k) => k.endsWith(suffix) && k.split('/').length === 4).sort();
  const out: CommitJournal[] = [];
  for (const key of keys) {
    const bytes = await storage.read(key);
    if (bytes === undefined) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
    } catch {
      // A journal is written atomically, so an unparsable one was never complete: its commit never began.
      if (!options.readOnly) await storage.delete(key);
      continue;
    }
    // An older journal is read in the current shape; a newer one is refused (never rolled half).
    const where = `${storage.root}/${key}`;
    try {
      out.push(upgradeToNewest(parsed, journalVersions(where), where) as unknown as CommitJournal);
    } catch (error) {
      if (!options.readOnly) throw error;
    }
  }
  return out;
}

/**
 * Finish the decided commits of every dataset and format a killed run left in the output (its own
 * sink's recovery finishes only its own): a run about to clear the staging folder of a shared
 * output would otherwise delete another pipeline's journal and strand its commit half-applied,
 * files renamed into place that the next recovery sweeps as orphans while a Delta log names them.
 * A commit whose Delta version can no longer be logged is undone (as its own sink would) and
 * reported, not thrown: it is another pipeline's, whose next run fetches it again. `only`: the
 * journals to finish (repair of one dataset); every one by default.
 */
export async function finishPendingCommits(storage: LakeStorage, guard: StepGuard, only: (journal: CommitJournal) => boolean = () => true): Promise<{ readonly finished: CommitJournal[]; readonly undone: CommitJournal[] }> {
  const finished: CommitJournal[] = [];
  const undone: CommitJournal[] = [];
  for (const journal of (await pendingJournals(storage)).filter(only)) {
    try {
      await rollForward(storage, journal, {}, guard);
      finished.push(journal);
    } catch (error) {
      if (!(error instanceof DeltaConflictError)) throw error;
      undone.push(journal);
    }
  }
  return { finished, undone };
}
