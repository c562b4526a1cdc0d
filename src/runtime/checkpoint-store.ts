/**
 * Checkpoints of one pipeline: `<stateDir>/checkpoints/<pipeline>.json`, one atomic file holding every
 * stream's position. Stream keys are data in the file, never path parts.
 */
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Checkpoint } from '../core/component.js';
import { confineName } from '../core/confine-path.js';
import { ConfigError } from '../core/errors.js';
import { PIPELINE_NAME } from '../config/pipeline-schema.js';
import { isTempFile, removeStaleTempFiles, syncDir, writeFileAtomic } from '../core/atomic-write.js';
import { upgradeToNewest } from '../core/version-steps.js';
import { CHECKPOINT_VERSIONS } from './checkpoint-versions.js';

export interface CheckpointFile {
  readonly version: 1;
  readonly pipeline: string;
  readonly updatedAt: string;
  readonly runId?: string;
  readonly streams: Record<string, Record<string, unknown>>;
}

export class CheckpointStore {
  readonly path: string;
  private readonly dir: string;

  constructor(
    stateDir: string,
    readonly pipeline: string,
  ) {
    if (!PIPELINE_NAME.test(pipeline)) throw new ConfigError(`pipeline name "${pipeline}" must match [a-z0-9-]+`);
    this.dir = join(stateDir, 'checkpoints');
    // The schema allows only [a-z0-9-]; the guard also holds its length and any caller that skipped it.
    this.path = confineName(this.dir, `${pipeline}.json`, 'checkpoint file');
  }

  /** Every saved checkpoint, by stream key; empty when the pipeline never committed. */
  async load(): Promise<Map<string, Checkpoint>> {
    const file = await this.loadFile();
    if (!file) return new Map();
    return new Map(Object.entries(file.streams).map(([stream, position]) => [stream, { stream, position }]));
  }

  /** The whole file (when and by which run it was saved, too); undefined when there is none. */
  async loadFile(): Promise<CheckpointFile | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (cause) {
      throw new ConfigError(`checkpoint file is not valid JSON: ${(cause as Error).message}`, { file: this.path }, cause);
    }
    // Older versions are brought to the current shape; a newer one is refused before any use.
    const parsed = upgradeToNewest(raw, CHECKPOINT_VERSIONS, this.path) as unknown as CheckpointFile;
    if (typeof parsed.streams !== 'object' || parsed.streams === null) {
      throw new ConfigError('checkpoint file has no streams object', { file: this.path });
    }
    return parsed;
  }

  /**
   * Forget these streams (`state reset`): the file is rewritten atomically without them, or removed
   * when none is left, so a reader sees the old file or the new one, never a part. The caller holds
   * the output lock, so no run saves in between. Returns the streams actually removed.
   */
  async remove(streams: readonly string[]): Promise<string[]> {
    const file = await this.loadFile();
    if (!file) return [];
    const drop = new Set(streams);
    const removed = Object.keys(file.streams).filter((s) => drop.has(s));
    if (removed.length === 0) return [];
    const kept = Object.fromEntries(Object.entries(file.streams).filter(([s]) => !drop.has(s)));
    if (Object.keys(kept).length === 0) {
      await unlink(this.path).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
      await syncDir(this.dir);
    } else {
      // updatedAt and runId still say which run saved the positions that are left.
      await writeFileAtomic(this.path, `${JSON.stringify({ ...file, streams: kept }, null, 2)}\n`);
    }
    return removed;
  }

  /** Replace the file with these checkpoints (call only after the commit that covers them). */
  async save(checkpoints: ReadonlyMap<string, Checkpoint>, meta: { now: Date; runId?: string }): Promise<void> {
    const streams: Record<string, Record<string, unknown>> = {};
    for (const key of [...checkpoints.keys()].sort()) streams[key] = { ...checkpoints.get(key)!.position };
    const file: CheckpointFile = {
      version: 1,
      pipeline: this.pipeline,
      updatedAt: meta.now.toISOString(),
      ...(meta.runId !== undefined ? { runId: meta.runId } : {}),
      streams,
    };
    await writeFileAtomic(this.path, `${JSON.stringify(file, null, 2)}\n`);
  }

  /** Remove temp files a crashed save left behind. */
  async cleanStale(): Promise<string[]> {
    return removeStaleTempFiles(this.dir);
  }
}

/** The pipelines with a checkpoint file under a state dir, sorted; [] when there is none. */
export async function checkpointPipelines(stateDir: string): Promise<string[]> {
  const names = await readdir(join(stateDir, 'checkpoints')).catch(() => [] as string[]);
  return names
    .filter((n) => n.endsWith('.json') && !isTempFile(n))
    .map((n) => n.slice(0, -'.json'.length))
    .filter((n) => PIPELINE_NAME.test(n))
    .sort();
}
