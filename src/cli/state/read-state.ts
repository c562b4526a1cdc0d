/** What `state show` reports of one pipeline: its checkpoint file read and joined with its last run. */
import { CheckpointStore } from '../../runtime/checkpoint-store.js';
import { runHoldsNoLock } from '../../runtime/output-lock.js';
import { resolve } from 'node:path';
import { readRunManifests, runManifestModifiedAt, type RunManifest, type RunStatus } from '../../runtime/run-manifest.js';
import { describeStream, type StreamState } from './describe-stream.js';
import { outputPath } from './output-path.js';
import type { StateTarget } from './state-targets.js';

export interface LastRun {
  readonly runId: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** Requests the run sent, in all and per endpoint. */
  readonly requests: number;
  readonly requestsByEndpoint: Readonly<Record<string, number>>;
  /** Rows per dataset: received = written + merged + rejected (a 0.1.0 run record has no merged). */
  readonly rows: Readonly<Record<string, { received: number; written: number; merged?: number; rejected: number }>>;
  /** A `running` record whose process is gone (killed, crashed): the next run on the output marks it interrupted. */
  readonly processGone?: true;
  /** The run that finished this (killed) run's last commit from its journal: its rows are counted here. */
  readonly commitFinishedBy?: string;
}

/** A stream's checkpoint, with what the pipeline's newest run did for it (null: that run recorded no per-stream counts). */
export type StreamReport = StreamState & { readonly lastRun: { readonly requests: number; readonly rows: number } | null };

export interface PipelineState {
  readonly pipeline: string;
  readonly file?: string;
  readonly outputDir: string;
  readonly stateDir: string;
  readonly keepsState: boolean;
  /** The checkpoint file, and when and by which run it was last saved (null: no checkpoint file). */
  readonly checkpoints: { readonly path: string; readonly updatedAt: string | null; readonly runId: string | null } | null;
  /** The newest run record of the pipeline in the state dir (any status), null when none. */
  readonly lastRun: LastRun | null;
  readonly streams: readonly StreamReport[];
}

/** Where a stream's rows went: the lake folder, an NDJSON file, or `stdout` (a checkpointed NDJSON stream: no folder holds them). */
function lakeOf(target: StateTarget, stream: StreamState, sink: string | undefined): StreamState {
  if (sink === 'ndjson stdout') return { ...stream, lake: 'stdout' };
  if (target.ndjsonPath === undefined) return stream;
  return { ...stream, lake: outputPath(target.outputDir, target.ndjsonPath.replaceAll('{dataset}', stream.dataset)) };
}

/**
 * The pipeline's run record written last. By the file's modification time, not the recorded start:
 * that follows the run's clock, which `--clock` sets, so two runs on one frozen instant would tie.
 */
async function newestRun(target: StateTarget): Promise<RunManifest | undefined> {
  let newest: { run: RunManifest; mtimeMs: number } | undefined;
  for (const run of await readRunManifests(target.state)) {
    if (run.pipeline !== target.pipeline) continue;
    const mtimeMs = (await runManifestModifiedAt(target.state, run.runId)) ?? 0;
    if (!newest || mtimeMs > newest.mtimeMs || (mtimeMs === newest.mtimeMs && run.startedAt > newest.run.startedAt)) newest = { run, mtimeMs };
  }
  return newest?.run;
}

/** As inspect tells it: only where the state is the output's own folder, whose lock its runs take. */
async function processGone(target: StateTarget, run: RunManifest): Promise<boolean> {
  const dir = target.state.dir;
  if (run.status !== 'running' || dir === undefined || /^s3:\/\//.test(target.outputDir)) return false;
  return resolve(dir) === resolve(target.outputDir, '.state') && runHoldsNoLock(target.outputDir, run.runId);
}

export async function readPipelineState(target: StateTarget, select: (stream: string) => boolean): Promise<PipelineState> {
  const store = new CheckpointStore(target.state, target.pipeline, undefined, undefined, target.resetCommand);
  const file = await store.loadFile();
  const last = await newestRun(target);
  // Runs of quotelake 0.1.0 recorded no per-stream counts.
  const perStream = last?.streams;
  const streams: StreamReport[] = file
    ? Object.entries(file.streams)
        .filter(([stream]) => select(stream))
        .map(([stream, position]) => ({
          ...lakeOf(target, describeStream({ stream, position }, target.outputDir), file.sink),
          lastRun: perStream ? (perStream[stream] ?? { requests: 0, rows: 0 }) : null,
        }))
    : [];
  return {
    pipeline: target.pipeline,
    ...(target.file !== undefined ? { file: target.file } : {}),
    outputDir: target.outputDir,
    stateDir: target.stateDir,
    keepsState: target.keepsState,
    checkpoints: file ? { path: store.path, updatedAt: file.updatedAt ?? null, runId: file.runId ?? null } : null,
    lastRun: last
      ? {
          runId: last.runId,
          status: last.status,
          startedAt: last.startedAt,
          finishedAt: last.finishedAt ?? null,
          requests: Object.values(last.requests).reduce((a, b) => a + b, 0),
          requestsByEndpoint: last.requests,
          rows: last.rows,
          ...((await processGone(target, last)) ? { processGone: true as const } : {}),
          ...(last.commitFinishedBy !== undefined ? { commitFinishedBy: last.commitFinishedBy } : {}),
        }
      : null,
    streams,
  };
}
