/**
 * A run killed after its commit journal was written and before its checkpoints were saved leaves a
 * decided commit: the next start finishes it (commit-journal.ts), so the lake holds its rows. The
 * journal carries the run's note (what its checkpoints would have been once the commit landed, and
 * the commit's counts), so the run that finishes it also moves that pipeline's checkpoints there
 * (the next run asks only for what is missing, not the whole window again) and gives the killed
 * run's record the rows and files that landed, naming the run that finished them.
 */
import { resolve } from 'node:path';
import type { Checkpoint, CommittedFile } from '../core/component.js';
import type { CommitJournal } from '../lake/commit/commit-journal.js';
import { journalRelPath } from '../lake/lake-paths.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { CheckpointStore } from './checkpoint-store.js';
import { readRunManifests, writeRunManifest, type RunManifest } from './run-manifest.js';
import type { StateRef } from './state-location.js';

/** What a run writes into each commit journal (RunContext.journalNote). */
export interface RunJournalNote {
  readonly runId: string;
  readonly pipeline: string;
  /** The checkpoint file the run saves to: only a run saving to the same one adopts the checkpoints. */
  readonly checkpointFile: string;
  /** Every stream's checkpoint as the run saves them once this commit has landed. */
  readonly checkpoints: readonly Checkpoint[];
}

/** A local path made absolute (a run started from another folder names the same file); an s3:// URL as it is. */
const fileKey = (path: string): string => (path.startsWith('s3://') ? path : resolve(path));

export function runJournalNote(runId: string, store: CheckpointStore, checkpoints: ReadonlyMap<string, Checkpoint>): RunJournalNote {
  return { runId, pipeline: store.pipeline, checkpointFile: fileKey(store.path), checkpoints: [...checkpoints.values()] };
}

interface NoteRead extends RunJournalNote {
  readonly taken: number;
  readonly merged: number;
}

function noteOf(journal: CommitJournal): NoteRead | undefined {
  const note = journal.note as Partial<NoteRead> | undefined;
  if (note === undefined || typeof note.runId !== 'string' || typeof note.pipeline !== 'string' || typeof note.checkpointFile !== 'string' || !Array.isArray(note.checkpoints)) return undefined;
  return { runId: note.runId, pipeline: note.pipeline, checkpointFile: note.checkpointFile, checkpoints: note.checkpoints, taken: Number(note.taken ?? 0), merged: Number(note.merged ?? 0) };
}

/**
 * Of the journals read before a recovery, those it finished: the journal is gone and its first new
 * file is in place (a commit undone on a Delta conflict deleted its files with its journal).
 */
export async function landedJournals(storage: LakeStorage, decided: readonly CommitJournal[]): Promise<CommitJournal[]> {
  const landed: CommitJournal[] = [];
  for (const journal of decided) {
    const first = journal.add[0];
    if (first === undefined || (await storage.exists(journalRelPath(journal.runId, journal.dataset, journal.format)))) continue;
    if (await storage.exists(first.to)) landed.push(journal);
  }
  return landed;
}

/** A finished commit of a killed run of this pipeline, as the summary tells it. */
export interface AdoptedCommit {
  readonly runId: string;
  readonly dataset: string;
  readonly rows: number;
  readonly merged: number;
  readonly files: number;
  /** The streams whose checkpoints were saved; 0 when the commit moved none (nothing saved). */
  readonly streams: number;
}

/**
 * For each finished journal of a killed run that saved to the checkpoint file `storeFor` gives for
 * its pipeline (none: left alone), oldest first: save its checkpoints, then add its commit to its
 * run record. `assertHeld` is checked before each save (a lost lease leaves both to the new holder).
 */
export async function adoptFinishedCommits(
  finished: readonly CommitJournal[],
  storeFor: (pipeline: string) => Promise<CheckpointStore | undefined>,
  state: StateRef,
  by: { runId: string; now: Date; assertHeld: () => void },
): Promise<AdoptedCommit[]> {
  const adopted: AdoptedCommit[] = [];
  for (const journal of finished) {
    const note = noteOf(journal);
    const store = note === undefined ? undefined : await storeFor(note.pipeline);
    if (note === undefined || store === undefined || note.checkpointFile !== fileKey(store.path)) continue;
    // A commit that moved no checkpoint (a worker's slices, which never move the pipeline's) saves
    // nothing: saving would make a file of no streams for a pipeline that never ran here, and say
    // that the pipeline resumes after rows it never took a checkpoint for.
    const moves = await movesCheckpoints(store, note.checkpoints);
    if (moves) {
      by.assertHeld();
      await store.save(new Map(note.checkpoints.map((c) => [c.stream, c])), { now: by.now, runId: note.runId });
    }
    const merged = Math.min(note.merged, note.taken);
    const files = addedFiles(journal);
    const record = (await readRunManifests(state)).find((m) => m.runId === note.runId);
    if (record !== undefined) {
      by.assertHeld();
      await writeRunManifest(state, withCommit(record, journal.dataset, note.taken - merged, merged, files, by.runId));
    }
    adopted.push({ runId: note.runId, dataset: journal.dataset, rows: note.taken - merged, merged, files: files.length, streams: moves ? note.checkpoints.length : 0 });
  }
  return adopted;
}

/** Whether saving these checkpoints changes the file: a stream added, moved or dropped (a damaged or unreadable file: yes, as before). */
async function movesCheckpoints(store: CheckpointStore, checkpoints: readonly Checkpoint[]): Promise<boolean> {
  let saved: Record<string, unknown>;
  try {
    saved = (await store.loadFile())?.streams ?? {};
  } catch {
    return true;
  }
  if (Object.keys(saved).length !== checkpoints.length) return true;
  return checkpoints.some((c) => !(c.stream in saved) || JSON.stringify(c.position) !== JSON.stringify(saved[c.stream]));
}

/** The files a journal adds, as a run record lists them (rows and bytes from its manifest). */
function addedFiles(journal: CommitJournal): CommittedFile[] {
  const prefix = `${journal.dataset}/`;
  const byPath = new Map(journal.manifest.files.map((f) => [`${prefix}${f.path}`, f]));
  return journal.add.map(({ to }) => ({ path: to, rows: byPath.get(to)?.rows ?? 0, bytes: byPath.get(to)?.bytes ?? 0 }));
}

function withCommit(record: RunManifest, dataset: string, written: number, merged: number, files: readonly CommittedFile[], finishedBy: string): RunManifest {
  const counts = record.rows[dataset] ?? { received: 0, written: 0, merged: 0, rejected: 0 };
  return {
    ...record,
    rows: { ...record.rows, [dataset]: { ...counts, written: counts.written + written, merged: (counts.merged ?? 0) + merged } },
    commits: record.commits + 1,
    filesCommitted: [...record.filesCommitted, ...files],
    commitFinishedBy: finishedBy,
  };
}

/**
 * The checkpoint store of a pipeline as its runs last saved it (the sink and lake they recorded),
 * for a command that finishes commits without running the pipeline (repair); undefined for a
 * damaged file, which only the pipeline's own reset or full refresh may replace.
 */
export function savedStoreFor(state: StateRef, lakeAt: string, lakeId: () => Promise<string | null>): (pipeline: string) => Promise<CheckpointStore | undefined> {
  return async (pipeline) => {
    let file: Awaited<ReturnType<CheckpointStore['loadFile']>>;
    try {
      file = await new CheckpointStore(state, pipeline).loadFile();
    } catch {
      return undefined;
    }
    return new CheckpointStore(state, pipeline, file?.sink, { id: file?.lake ?? (await lakeId()), where: lakeAt });
  };
}
