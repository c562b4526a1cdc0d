/**
 * Checkpoints of one pipeline: `<stateDir>/checkpoints/<pipeline>.json`, one atomic file holding every
 * stream's position. Stream keys are data in the file, never path parts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Checkpoint } from '../core/component.js';
import { confineName } from '../core/confine-path.js';
import { ConfigError } from '../core/errors.js';
import { PIPELINE_NAME } from '../config/pipeline-schema.js';
import { removeStaleTempFiles, writeFileAtomic } from '../core/atomic-write.js';
import { upgradeToNewest } from '../core/version-steps.js';
import { CHECKPOINT_VERSIONS } from './checkpoint-versions.js';

interface CheckpointFile {
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
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
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
    return new Map(Object.entries(parsed.streams).map(([stream, position]) => [stream, { stream, position }]));
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
