/** One JSON file per run, `<stateDir>/runs/<runId>.json`: what the run asked, received, wrote and how it ended. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { confineName } from '../core/confine-path.js';
import type { CommittedFile } from '../core/component.js';
import { isTempFile, removeStaleTempFiles, writeFileAtomic } from '../core/atomic-write.js';
import type { RowCounts } from './run-events.js';

export type RunStatus = 'running' | 'succeeded' | 'aborted' | 'failed' | 'interrupted';

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
  readonly error?: { readonly code: string; readonly message: string };
}

export function runsDir(stateDir: string): string {
  return join(stateDir, 'runs');
}

export async function writeRunManifest(stateDir: string, manifest: RunManifest): Promise<string> {
  // A run id may come from the API caller: it names a file only through the guard.
  const path = confineName(runsDir(stateDir), `${manifest.runId}.json`, 'run manifest');
  // In-progress updates are records, not state: atomic but not fsynced; the final one is durable.
  await writeFileAtomic(path, `${JSON.stringify(manifest, null, 2)}\n`, { durable: manifest.status !== 'running' });
  return path;
}

export async function readRunManifests(stateDir: string): Promise<RunManifest[]> {
  let names: string[];
  try {
    names = await readdir(runsDir(stateDir));
  } catch {
    return [];
  }
  const out: RunManifest[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !isTempFile(n)).sort()) {
    try {
      out.push(JSON.parse(await readFile(join(runsDir(stateDir), name), 'utf8')) as RunManifest);
    } catch {
      // A manifest is a record, not state: a damaged one must not stop a run.
    }
  }
  return out;
}

/**
 * Runs of this pipeline still marked `running` were killed: mark them `interrupted`
 * and remove any half-written manifest temp file.
 */
export async function markInterruptedRuns(stateDir: string, pipeline: string, now: Date): Promise<string[]> {
  await removeStaleTempFiles(runsDir(stateDir));
  const marked: string[] = [];
  for (const m of await readRunManifests(stateDir)) {
    if (m.pipeline !== pipeline || m.status !== 'running') continue;
    await writeRunManifest(stateDir, { ...m, status: 'interrupted', finishedAt: now.toISOString() });
    marked.push(m.runId);
  }
  return marked;
}
