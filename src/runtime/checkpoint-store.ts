/**
 * Checkpoints of one pipeline: `checkpoints/<pipeline>.json` in the state location (a local state
 * folder, or `_quotelake/state/` of a lake on S3), one atomic file holding every stream's position.
 * Stream keys are data in the file, never path parts.
 */
import { join, resolve } from 'node:path';
import type { Checkpoint } from '../core/component.js';
import { confineName } from '../core/confine-path.js';
import { checkpointStateFile } from '../core/lake-key-reserve.js';
import { ConfigError, StateConflictError } from '../core/errors.js';
import { PIPELINE_NAME } from '../config/pipeline-schema.js';
import { isS3Url } from '../core/s3-url.js';
import { upgradeToNewest } from '../core/version-steps.js';
import { CHECKPOINT_VERSIONS } from './checkpoint-versions.js';
import { StateFiles } from './state-files.js';
import type { StateRef } from './state-location.js';

const CHECKPOINTS = 'checkpoints';

export interface CheckpointFile {
  readonly version: 1;
  readonly pipeline: string;
  readonly updatedAt: string;
  readonly runId?: string;
  /** The sink the positions were saved for (checkpoint-sink.ts); absent in files of earlier versions. */
  readonly sink?: string;
  /** The lake they were saved for (its layout file's lakeId); absent for NDJSON and in earlier files. */
  readonly lake?: string;
  /** Where that lake was when they were saved (an absolute path or an s3:// URL), so a refusal can name it; absent in earlier files. */
  readonly lakeAt?: string;
  readonly streams: Record<string, Record<string, unknown>>;
}

/**
 * A checkpoint file that cannot be read as one (not JSON, or without streams): changed outside
 * quotelake, whose saves are atomic. `state reset` of the whole pipeline removes it; nothing else may.
 */
export class DamagedCheckpointError extends ConfigError {}

/** A damaged checkpoint file is not the pipeline's fault (the generic hint of a ConfigError would say so), and commits replace it whole. */
export class CheckpointStore {
  /** Where the file is, for messages: a local path, or an s3:// URL. */
  readonly path: string;
  private readonly files: StateFiles;
  private readonly rel: string;

  /**
   * `sink`: the sink of the run that loads and saves (checkpoint-sink.ts). Given, a file saved for
   * another sink is refused at load, and saves record it; left out (state show, reset), neither.
   * `lake`: the id of the lake the run writes (lake-id.ts), null for an output that has none yet;
   * given, a file saved for another lake is refused at load, and saves record it.
   * `resetCommand`: the `quotelake state reset` those refusals name (state-reset-command.ts).
   */
  constructor(
    state: StateRef,
    readonly pipeline: string,
    private readonly sink?: string,
    private readonly lake?: { readonly id: string | null; readonly where: string },
    private readonly resetCommand = `quotelake state reset ${pipeline}`,
  ) {
    if (!PIPELINE_NAME.test(pipeline)) throw new ConfigError(`pipeline name "${pipeline}" must match [a-z0-9-]+`);
    this.files = new StateFiles(state);
    this.rel = checkpointStateFile(pipeline);
    const dir = this.files.location.dir;
    // The schema allows only [a-z0-9-]; the guard also holds its length and any caller that skipped it.
    this.path = dir !== undefined ? confineName(join(dir, CHECKPOINTS), `${pipeline}.json`, 'checkpoint file') : this.files.describe(this.rel);
  }

  /** Every saved checkpoint, by stream key; empty when the pipeline never committed. */
  async load(): Promise<Map<string, Checkpoint>> {
    const file = await this.loadFile();
    if (!file) return new Map();
    if (this.sink !== undefined && file.sink !== undefined && file.sink !== this.sink) {
      throw new StateConflictError(
        `the checkpoints of pipeline "${this.pipeline}" were saved by a run writing to ${file.sink}, and this run writes to ${this.sink}: a pipeline's name keys its checkpoints, so it would resume where that run stopped and skip what it never wrote here`,
        this.path,
        `give this pipeline a name of its own (or another --state-dir), or start it over with "${this.resetCommand}"`,
      );
    }
    if (this.lake !== undefined && file.lake !== undefined && file.lake !== this.lake.id) {
      throw new StateConflictError(
        `the checkpoints of pipeline "${this.pipeline}" were saved for another lake (${otherLake(file, where(this.lake.where))}) than ${this.lake.where}` +
          // Without an id the lake may be that one, its layout file lost: the hint says how to tell.
          (this.lake.id === null
            ? `, which has no lake id (a new output, or one whose _quotelake/layout.json was lost): a run here would resume where those checkpoints stopped and never fetch what came before`
            : ` (id ${this.lake.id}): this state folder serves another output, and a run here would resume where that one stopped and never fetch what came before`),
        this.path,
        this.lake.id === null
          ? `if this is that lake and its _quotelake/layout.json was lost, "quotelake repair --output ${this.lake.where} --yes" (with the --state-dir of this run, if it has one) writes it again with that id, and the run resumes; otherwise give each output its own state folder (the default, <output>/.state, is one), or start this pipeline over here with "${this.resetCommand}"`
          : `give each output its own state folder (the default, <output>/.state, is one), or start this pipeline over here with "${this.resetCommand}" (the other output then starts over too)`,
      );
    }
    return new Map(Object.entries(file.streams).map(([stream, position]) => [stream, { stream, position }]));
  }

  /** The whole file (when and by which run it was saved, too); undefined when there is none. */
  async loadFile(): Promise<CheckpointFile | undefined> {
    const text = await this.files.read(this.rel);
    if (text === undefined) return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (cause) {
      throw new DamagedCheckpointError(`checkpoint file is not valid JSON: ${(cause as Error).message}`, { file: this.path }, cause, this.damagedHint());
    }
    // Older versions are brought to the current shape; a newer one is refused before any use.
    const parsed = upgradeToNewest(raw, CHECKPOINT_VERSIONS, this.path) as unknown as CheckpointFile;
    if (typeof parsed.streams !== 'object' || parsed.streams === null) {
      throw new DamagedCheckpointError('checkpoint file has no streams object', { file: this.path }, undefined, this.damagedHint());
    }
    return parsed;
  }

  /**
   * Saves are atomic, so a damaged file was changed by something else. A reset of the whole
   * pipeline removes it (what forgetting all its streams does), under the output lock; a reset of
   * some streams cannot, as it could not keep the others.
   */
  private damagedHint(): string {
    return `the checkpoints of pipeline "${this.pipeline}" are damaged (changed outside quotelake): restore the file from a backup, or remove it with "${this.resetCommand}" (without --stream: the whole file goes) and the next run fetches this pipeline's streams again from since, merging the rows by key (data files are kept); a run with --full-refresh does the same and its first commit replaces the file`;
  }

  /**
   * Remove the file whole, whatever it holds (`state reset` of a pipeline whose file is damaged).
   * The caller holds the output lock. Returns whether there was a file to remove.
   */
  async removeFile(): Promise<boolean> {
    if ((await this.files.read(this.rel)) === undefined) return false;
    await this.files.remove(this.rel);
    return true;
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
      await this.files.remove(this.rel);
    } else {
      // updatedAt and runId still say which run saved the positions that are left.
      await this.files.write(this.rel, `${JSON.stringify({ ...file, streams: kept }, null, 2)}\n`);
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
      ...(this.sink !== undefined ? { sink: this.sink } : {}),
      ...(typeof this.lake?.id === 'string' ? { lake: this.lake.id, lakeAt: where(this.lake.where) } : {}),
      streams,
    };
    await this.files.write(this.rel, `${JSON.stringify(file, null, 2)}\n`);
  }

  /** Remove temp files a crashed save left behind (a local folder only: an S3 PUT is never half). */
  async cleanStale(): Promise<string[]> {
    return this.files.cleanStale(CHECKPOINTS);
  }
}

/** A lake's place as a checkpoint file records it: a local output made absolute, an s3:// URL as given. */
function where(output: string): string {
  return isS3Url(output) ? output : resolve(output);
}

/**
 * The lake a checkpoint file was saved for, as a refusal names it: with its place when the file
 * records one (files of earlier versions hold only the id). A lake moved since is no longer there,
 * hence "when they were saved"; the same place under another id is a lake made anew there.
 */
function otherLake(file: CheckpointFile, here: string): string {
  if (file.lakeAt === undefined) return `id ${file.lake}`;
  return file.lakeAt === here ? `id ${file.lake}, the lake at this place when they were saved` : `id ${file.lake}, at ${file.lakeAt} when they were saved`;
}

/**
 * The pipelines with a checkpoint file (or a folder where it goes) in a state location, sorted; [] when there is none. A store
 * that cannot be read is an error, never "none": `state reset` would say "nothing to reset", exit 0,
 * and the next run resume from checkpoints it was told to forget.
 */
export async function checkpointPipelines(state: StateRef): Promise<string[]> {
  const files = new StateFiles(state);
  // A folder in a checkpoint file's place is listed too: loading it names it (as `run` does).
  const names = [...new Set([...(await files.names(CHECKPOINTS)), ...(await files.folders(CHECKPOINTS))])];
  return names
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -'.json'.length))
    .filter((n) => PIPELINE_NAME.test(n))
    .sort();
}
