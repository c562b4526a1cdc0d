/**
 * `repair`'s first step: the commits killed runs decided and did not finish (their journals under
 * `_quotelake/staging/`). A dry run names each and what repair would do; a repair finishes each (a
 * Delta version another writer's commit forbids undoes it), as the next run would, and moves the
 * killed run's checkpoints and record to what landed (finished-commits.ts), so its pipeline resumes
 * after those rows instead of fetching them again. Every dataset has its commit finished, also one
 * with no manifest yet (a lake whose first commit was killed).
 */
import { finishPendingCommits, pendingJournals, type CommitJournal } from '../../lake/commit/commit-journal.js';
import { readLakeId } from '../../lake/layout/index.js';
import type { LakeStorage } from '../../lake/storage/lake-storage.js';
import { adoptFinishedCommits, savedStoreFor } from '../../runtime/finished-commits.js';
import type { StateRef } from '../../runtime/state-location.js';

export interface PendingCommitRepair {
  readonly dataset: string;
  readonly format: string;
  /** The run that decided the commit. */
  readonly run: string;
  readonly files: number;
  /** The commit logs a Delta version (the table keeps a Delta log). */
  readonly delta: boolean;
  /** `would-finish` (dry run), `finished`, or `undone` (its Delta version can no longer be logged). */
  readonly outcome: 'would-finish' | 'finished' | 'undone';
  /** The deciding run's checkpoints were saved as the commit holds them (its pipeline resumes after them). */
  readonly checkpointsSaved: boolean;
}

export async function repairPendingCommits(
  storage: LakeStorage,
  state: StateRef,
  options: { readonly dryRun: boolean; readonly dataset?: string | undefined; readonly runId: string; readonly now: Date; readonly assertHeld: () => void },
): Promise<PendingCommitRepair[]> {
  const mine = (j: CommitJournal) => options.dataset === undefined || j.dataset === options.dataset;
  const describe = (j: CommitJournal, outcome: PendingCommitRepair['outcome'], checkpointsSaved = false): PendingCommitRepair => ({ dataset: j.dataset, format: j.format, run: j.runId, files: j.add.length, delta: j.delta !== undefined, outcome, checkpointsSaved });
  if (options.dryRun) return (await pendingJournals(storage, undefined, { readOnly: true })).filter(mine).map((j) => describe(j, 'would-finish'));
  const { finished, undone } = await finishPendingCommits(storage, options.assertHeld, mine);
  const adopted = await adoptFinishedCommits(finished, savedStoreFor(state, storage.root, () => readLakeId(storage)), state, { runId: options.runId, now: options.now, assertHeld: options.assertHeld });
  const saved = new Set(adopted.filter((a) => a.streams > 0).map((a) => `${a.runId}/${a.dataset}`));
  return [...finished.map((j) => describe(j, 'finished', saved.has(`${j.runId}/${j.dataset}`))), ...undone.map((j) => describe(j, 'undone'))];
}

export function formatPendingCommit(p: PendingCommitRepair): string {
  const what = `${p.dataset}.${p.format}: a commit of ${p.files} file${p.files === 1 ? '' : 's'} that run ${p.run} decided and did not finish (killed)`;
  if (p.outcome === 'would-finish') return `${what}; would be finished first, as the next run would (its files are whole and in place; the manifest${p.delta ? ' and the Delta log' : ''} would name them)\n`;
  if (p.outcome === 'undone') return `${what}; undone: its table's Delta log has moved on since, so the pipeline's next run fetches those rows again\n`;
  return `${what}; finished${p.checkpointsSaved ? ", and that run's checkpoints saved as the commit holds them (its pipeline resumes after those rows)" : ''}\n`;
}
