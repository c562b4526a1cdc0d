/** What `state show` reports of one pipeline: its checkpoint file read and joined with its last run. */
import { join } from 'node:path';
import { CheckpointStore } from '../../runtime/checkpoint-store.js';
import { readRunManifests, type RunStatus } from '../../runtime/run-manifest.js';
import { describeStream, type StreamState } from './describe-stream.js';
import type { StateTarget } from './state-targets.js';

export interface LastRun {
  readonly runId: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** Requests the run sent, in all and per endpoint. */
  readonly requests: number;
  readonly requestsByEndpoint: Readonly<Record<string, number>>;
  /** Rows per dataset: received, written, rejected. */
  readonly rows: Readonly<Record<string, { received: number; written: number; rejected: number }>>;
}

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
  readonly streams: readonly StreamState[];
}

function lakeOf(target: StateTarget, stream: StreamState): StreamState {
  if (target.ndjsonPath === undefined) return stream;
  return { ...stream, lake: join(target.outputDir, target.ndjsonPath.replaceAll('{dataset}', stream.dataset)) };
}

export async function readPipelineState(target: StateTarget, select: (stream: string) => boolean): Promise<PipelineState> {
  const store = new CheckpointStore(target.stateDir, target.pipeline);
  const file = await store.loadFile();
  const streams = file
    ? Object.entries(file.streams)
        .filter(([stream]) => select(stream))
        .map(([stream, position]) => lakeOf(target, describeStream({ stream, position }, target.outputDir)))
    : [];
  const runs = (await readRunManifests(target.stateDir))
    .filter((m) => m.pipeline === target.pipeline)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.runId.localeCompare(b.runId));
  const last = runs.at(-1);
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
        }
      : null,
    streams,
  };
}
