/**
 * What an output folder holds, from the lake reader: the manifests name the live files, and each
 * file's footer gives its rows and series (from `quotelake.series`, or the key and time columns
 * of older files); each file is checked against the manifest (exists, size, rows). Run manifests
 * under the state dir give the last runs.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { summarizeLake, type DatasetSummary, type ReadProgress } from '../../lake/reader/index.js';
import { readRunManifests, type RunManifest } from '../../runtime/run-manifest.js';
import { stateLocationOf, type StateRef } from '../../runtime/state-location.js';
import type { LakeStorage } from '../../lake/storage/lake-storage.js';
import { localStorage } from '../../lake/storage/local-storage.js';
import { deltaDrift } from '../../lake/commit/delta-drift.js';
import { pendingJournals } from '../../lake/commit/commit-journal.js';
import { runHoldsNoLock } from '../../runtime/output-lock.js';
import { lakeArgs } from '../../core/lake-args.js';
import { ndjsonFilesOf, type NdjsonFileInfo } from './ndjson-files.js';

export interface SeriesInfo {
  /** e.g. `BTCUSDT 1m` (kline), `AAPL.US` (trade, depth), `nyse` (halt). */
  readonly series: string;
  readonly rows: number;
  /** ISO instants of the first and last row (bar open time for K-lines). */
  readonly first: string | null;
  readonly last: string | null;
}

export interface DatasetInfo {
  readonly dataset: string;
  readonly format: string;
  /** Files the manifest lists, `unreadable` included. */
  readonly files: number;
  /** Listed files missing or unreadable (each named in `problems`): `rows` and `bytes` leave them out. */
  readonly unreadable: number;
  readonly bytes: number;
  readonly rows: number;
  readonly partitions: readonly string[];
  readonly series: readonly SeriesInfo[];
  /** Files the manifest lists that are missing or unreadable. */
  readonly problems: readonly string[];
  readonly updatedAt: string;
}

export interface RunInfo {
  readonly runId: string;
  readonly pipeline: string;
  readonly status: string;
  readonly startedAt: string;
  readonly finishedAt?: string | undefined;
  readonly requests: number;
  /** Rows the run's source delivered; more than written, merged and rejected together when some were never committed (a killed run). */
  readonly rowsReceived: number;
  readonly rowsWritten: number;
  /** Rows whose key the dataset held already (a run that re-fetched a range merges, writing none new). */
  readonly rowsMerged: number;
  readonly files: number;
  readonly rejected: number;
  readonly error?: string | undefined;
  /** A `running` record whose process is gone (killed, crashed): the next run on the output marks it interrupted. */
  readonly processGone?: true;
  /** The run that finished this (killed) run's last commit from its journal: its rows and files are counted here. */
  readonly commitFinishedBy?: string;
}

/** A commit a killed run (or compaction) decided and did not finish: the next run or `compact` of the output finishes it. */
export interface PendingCommitInfo {
  readonly dataset: string;
  readonly format: string;
  readonly run: string;
  readonly files: number;
}

export interface OutputInfo {
  readonly output: string;
  readonly stateDir: string;
  readonly datasets: readonly DatasetInfo[];
  readonly pendingCommits: readonly PendingCommitInfo[];
  readonly rejectedFiles: number;
  readonly runs: readonly RunInfo[];
  /** Run record files left out of `runs` because they cannot be read (not JSON, or not a run record). */
  readonly damagedRunRecords: readonly string[];
  /** NDJSON files beside the lake (an ndjson sink's): no dataset, so not read, only named. */
  readonly ndjsonFiles: readonly NdjsonFileInfo[];
}

function datasetInfo(d: DatasetSummary): DatasetInfo {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    dataset: d.dataset,
    format: d.format,
    files: d.files,
    unreadable: d.unreadable,
    bytes: d.bytes,
    rows: d.rows,
    partitions: d.partitions,
    series: [...d.series.entries()].map(([series, s]) => ({ series, rows: s.rows, first: iso(s.first), last: iso(s.last) })),
    problems: d.problems,
    updatedAt: d.updatedAt,
  };
}

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (e.isDirectory()) n += await countFiles(join(dir, e.name));
    else if (e.isFile()) n++;
  }
  return n;
}

/** `storage`: the output's, when it is not a local folder (an s3:// output). */
export async function inspectOutput(output: string, state: StateRef, lastRuns = 5, onProgress?: ReadProgress, storage?: LakeStorage): Promise<OutputInfo> {
  const stateDir = stateLocationOf(state).where;
  if (storage === undefined) {
    const st = await stat(output).catch(() => undefined);
    if (!st?.isDirectory()) throw new Error(`${output} is not a folder`);
  }
  const lake = storage ?? localStorage(output);
  const pendingCommits = (await pendingJournals(lake, undefined, { readOnly: true })).map((j) => ({ dataset: j.dataset, format: j.format, run: j.runId, files: j.add.length }));
  const settled = (await summarizeLake(storage ?? output, onProgress ? { onProgress } : {})).map(datasetInfo);
  // A table with a pending commit disagrees with its log until that commit is finished: no problem.
  const datasets = await withDeltaDrift(settled, lake, output, new Set(pendingCommits.map((c) => `${c.dataset}.${c.format}`)));
  // --runs 0 asks for none (slice(-0) would be every run).
  const damagedRunRecords: string[] = [];
  // Only where the state is the output's own: a shared --state-dir holds runs of other outputs, whose locks are elsewhere.
  const ownState = storage === undefined && resolve(stateDir) === resolve(output, '.state');
  // Read for the last runs, and (own state only) for the NDJSON files they committed.
  const manifests = lastRuns === 0 && !ownState ? [] : await readRunManifests(state, (name) => damagedRunRecords.push(name));
  const runs =
    lastRuns === 0
      ? []
      : [...manifests]
          .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
          .slice(-lastRuns)
          .reverse()
          .map(runInfo);
  // An ndjson sink writes files only into a local folder (an s3:// output takes it to stdout only).
  const ndjsonFiles = storage !== undefined ? [] : await ndjsonFilesOf(output, ownState ? manifests.flatMap((m) => m.filesCommitted.map((f) => f.path)) : []);
  const judged = await Promise.all(runs.map(async (r) => (ownState && r.status === 'running' && (await runHoldsNoLock(output, r.runId)) ? { ...r, processGone: true as const } : r)));
  const rejectedFiles = storage === undefined ? await countFiles(join(output, '_rejected')) : (await storage.list('_rejected/')).length;
  return { output, stateDir, datasets, pendingCommits, rejectedFiles, runs: judged, damagedRunRecords: lastRuns === 0 ? [] : damagedRunRecords.sort(), ndjsonFiles };
}

/**
 * A Delta table whose log and manifest disagree (delta-drift.ts) is a problem of the dataset: Delta
 * readers see other rows than quotelake, and its next merge of those files fails. So is one whose
 * log holds no version at all: Delta readers do not open it, and runs refuse it.
 */
async function withDeltaDrift(datasets: DatasetInfo[], storage: LakeStorage, output: string, pending: ReadonlySet<string>): Promise<DatasetInfo[]> {
  return Promise.all(
    datasets.map(async (d) => {
      if (pending.has(`${d.dataset}.${d.format}`)) return d;
      const drift = await deltaDrift(storage, d.dataset, d.format);
      const n = drift.unlisted.length + drift.unlogged.length;
      if (n === 0) return d;
      const problem = drift.logLost === true
        ? `${d.dataset}: a Delta table (its manifest records it) whose _delta_log/ holds no version: Delta readers no longer open it, and runs refuse to write it; restore the log from a backup of the output, or "quotelake repair ${lakeArgs(output, storage.endpoint)} --dry-run" shows the new log it would write from the manifest's ${n} live file${n === 1 ? '' : 's'}, --yes writes it`
        : `${d.dataset}: the Delta log and the manifest disagree on ${n} file${n === 1 ? '' : 's'} (a commit stranded half-way; Delta readers see other rows than quotelake): "quotelake repair ${lakeArgs(output, storage.endpoint)} --dry-run" lists them, --yes mends the log`;
      return { ...d, problems: [...d.problems, problem] };
    }),
  );
}

function runInfo(m: RunManifest): RunInfo {
  return {
    runId: m.runId,
    pipeline: m.pipeline,
    status: m.status,
    startedAt: m.startedAt,
    finishedAt: m.finishedAt,
    requests: Object.values(m.requests).reduce((a, b) => a + b, 0),
    rowsReceived: Object.values(m.rows).reduce((a, r) => a + r.received, 0),
    rowsWritten: Object.values(m.rows).reduce((a, r) => a + r.written, 0),
    // A manifest of quotelake 0.1.0 has no merged count.
    rowsMerged: Object.values(m.rows).reduce((a, r) => a + (r.merged ?? 0), 0),
    files: m.filesCommitted.length,
    rejected: m.rejected,
    error: m.error?.message,
    ...(m.commitFinishedBy !== undefined ? { commitFinishedBy: m.commitFinishedBy } : {}),
  };
}
