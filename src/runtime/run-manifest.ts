/**
 * One JSON file per run, `runs/<runId>.json` in the state location (`<stateDir>/runs/` locally,
 * `_quotelake/state/runs/` in a lake on S3): what the run asked, received, wrote and how it ended.
 */
import { join } from 'node:path';
import { confineName } from '../core/confine-path.js';
import type { CommittedFile } from '../core/component.js';
import type { RowCounts } from './run-events.js';
import { StateFiles } from './state-files.js';
import { stateLocationOf, type StateRef } from './state-location.js';

export interface CommittedShortfall {
  readonly stream: string;
  readonly message: string;
  /** The run that said it. */
  readonly runId: string;
}

/** `output-closed`: a stream sink's reader (stdout) went away with rows left to write (exit 141). */
export type RunStatus = 'running' | 'succeeded' | 'aborted' | 'failed' | 'interrupted' | 'output-closed';

export interface RunManifest {
  readonly version: 1;
  readonly runId: string;
  readonly pipeline: string;
  readonly startedAt: string;
  readonly finishedAt?: string;
  readonly status: RunStatus;
  /** Requests sent, per endpoint. */
  readonly requests: Readonly<Record<string, number>>;
  /** Rows per dataset: received from the source, written (committed) by the sink, rejected. */
  readonly rows: Readonly<Record<string, RowCounts>>;
  /** Per stream key: requests the source attributed to it and rows received (what `state show` prints beside each checkpoint). */
  readonly streams?: Readonly<Record<string, { readonly requests: number; readonly rows: number }>>;
  readonly commits: number;
  /** Every file the run's commits made visible, relative to the output root. */
  readonly filesCommitted: readonly CommittedFile[];
  readonly rejected: number;
  readonly quotaLeft?: number;
  /**
   * Shortfalls whose stream's checkpoint this run committed (no later run asks for those bars
   * again), with the run that first said each: a run that does not finish hands them on.
   */
  readonly shortfallsCommitted?: readonly CommittedShortfall[];
  /** The run stopped at the daily quota (exit 75, which outranks a shortfall's 4). */
  readonly stoppedAtQuota?: true;
  /** The run that took this run's committed shortfalls over (said them and counts them in its exit code). */
  readonly shortfallsCarriedBy?: string;
  readonly error?: { readonly code: string; readonly message: string };
  /**
   * The run that finished this run's last commit from its journal (this run was killed after
   * deciding it): its rows and files are counted above, as landed.
   */
  readonly commitFinishedBy?: string;
}

const RUNS = 'runs';

export function runsDir(stateDir: string): string {
  return join(stateDir, RUNS);
}

/** The manifest's name in the state location; a run id may come from the API caller, so it passes the guard. */
function manifestRel(runId: string): string {
  // The guard's root is a stand-in: only the name is checked (one plain segment, not too long).
  confineName('/runs', `${runId}.json`, 'run manifest');
  return `${RUNS}/${runId}.json`;
}

/** Writes the manifest; returns where it is (a local path, or an s3:// URL). */
export async function writeRunManifest(state: StateRef, manifest: RunManifest): Promise<string> {
  const files = new StateFiles(state);
  const rel = manifestRel(manifest.runId);
  // In-progress updates are records, not state: atomic but not fsynced; the final one is durable.
  await files.write(rel, `${JSON.stringify(manifest, null, 2)}\n`, { durable: manifest.status !== 'running' });
  const dir = files.location.dir;
  return dir !== undefined ? confineName(runsDir(dir), `${manifest.runId}.json`, 'run manifest') : files.describe(rel);
}

/** When a run's manifest was last written (epoch ms), or undefined: orders runs on one frozen clock. */
export async function runManifestModifiedAt(state: StateRef, runId: string): Promise<number | undefined> {
  return new StateFiles(state).modifiedAt(manifestRel(runId)).catch(() => undefined);
}

/** `onDamaged`: told the file name of each record that cannot be read (not JSON, or not a run record), which is left out. */
export async function readRunManifests(state: StateRef, onDamaged?: (name: string) => void): Promise<RunManifest[]> {
  const files = new StateFiles(state);
  let names: string[];
  try {
    names = await files.names(RUNS);
  } catch {
    return [];
  }
  const out: RunManifest[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const text = await files.read(`${RUNS}/${name}`);
      if (text === undefined) continue;
      const record: unknown = JSON.parse(text);
      if (isRunManifest(record)) out.push(record);
      else onDamaged?.(name);
    } catch {
      // A manifest is a record, not state: a damaged one must not stop a run.
      onDamaged?.(name);
    }
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether parsed JSON has what every reader of a run record counts on: valid JSON that is no record
 * (`null`, `[]`, `{}`, a file edited by hand) is as damaged as text that is not JSON.
 */
function isRunManifest(v: unknown): v is RunManifest {
  if (!isObject(v)) return false;
  const strings = ['runId', 'pipeline', 'startedAt', 'status'].every((k) => typeof v[k] === 'string');
  return strings && isObject(v.requests) && isObject(v.rows) && Object.values(v.rows).every(isObject) && Array.isArray(v.filesCommitted);
}

/**
 * Runs still marked `running` were killed: mark them `interrupted` (returned) and remove any
 * half-written manifest temp file. `pipeline` names the runs that count: one pipeline's where the
 * state folder may be shared by several outputs (an explicit local `--state-dir`, whose other runs
 * the caller's lock does not cover), or every pipeline's (undefined) where the state is the
 * output's own and the caller holds the output, so no run recorded there is alive. `beforeMark`
 * first gets the run ids of every dead run counted (those about to be marked, and those marked
 * before), to clean what they left outside the state (their local scratch): cleaning before the
 * mark means a kill in between repeats it, and the runs marked before cover what a version that
 * marked first left behind.
 */
export async function markInterruptedRuns(state: StateRef, pipeline: string | undefined, now: Date, beforeMark?: (runIds: string[]) => Promise<void>): Promise<string[]> {
  const location = stateLocationOf(state);
  await new StateFiles(location).cleanStale(RUNS);
  const runs = (await readRunManifests(location)).filter((m) => pipeline === undefined || m.pipeline === pipeline);
  const dead = runs.filter((m) => m.status === 'running');
  await beforeMark?.([...dead, ...runs.filter((m) => m.status === 'interrupted')].map((m) => m.runId));
  for (const m of dead) await writeRunManifest(location, { ...m, status: 'interrupted', finishedAt: now.toISOString() });
  return dead.map((m) => m.runId);
}
