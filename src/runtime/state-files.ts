/**
 * The small files of a pipeline's state (a checkpoint file, run manifests) on a StateLocation. One
 * rule for both backends: a file is replaced whole or not at all (`publish`: a local rename, one S3
 * PUT), so a reader on any host sees the old content or the new. A local folder keeps today's files
 * exactly (same names, same temp-file sweep, in-progress records written without fsync).
 */
import { readdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isTempFile, removeStaleTempFiles, syncDir, writeFileAtomic } from '../core/atomic-write.js';
import { environmentErrorOf } from '../core/environment-error.js';
import { EnvironmentError } from '../core/errors.js';
import { shellWord } from '../core/shell-word.js';
import { stateLocationOf, type StateLocation, type StateRef } from './state-location.js';

export class StateFiles {
  readonly location: StateLocation;

  constructor(ref: StateRef) {
    this.location = stateLocationOf(ref);
  }

  private key(rel: string): string {
    return `${this.location.prefix}${rel}`;
  }

  /** Where a state file is, for messages: its path on this machine, or its s3:// URL. */
  describe(rel: string): string {
    return this.location.storage.localPath(this.key(rel)) ?? `${this.location.where}/${rel}`;
  }

  async read(rel: string): Promise<string | undefined> {
    try {
      const bytes = await this.location.storage.read(this.key(rel));
      return bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');
    } catch (error) {
      throw this.folderInPlace(error);
    }
  }

  /** Replace a file atomically. durable false: a record, not state (no fsync on a local disk). */
  async write(rel: string, text: string, options: { durable?: boolean } = {}): Promise<void> {
    const local = this.location.storage.localPath(this.key(rel));
    try {
      if (local !== undefined) await writeFileAtomic(local, text, { durable: options.durable ?? true });
      else await this.location.storage.publish(this.key(rel), text);
    } catch (error) {
      throw this.folderInPlace(error);
    }
  }

  /**
   * A folder where a state file goes: the path is quotelake's own, so choosing another --output
   * (the generic hint) is not the way out; removing that folder is. Any other error as it was.
   */
  private folderInPlace(error: unknown): unknown {
    if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EISDIR') return error;
    const found = environmentErrorOf(error, 'plan');
    if (found === undefined) return error;
    return new EnvironmentError(
      found.code,
      found.message,
      found.target,
      `quotelake keeps a state file of its own there (under ${this.location.where}): remove that folder (rmdir ${shellWord(found.target)}, after moving out anything kept in it) and run the same command again`,
      { stage: found.stage, cause: error },
    );
  }

  async remove(rel: string): Promise<void> {
    const local = this.location.storage.localPath(this.key(rel));
    if (local === undefined) return this.location.storage.delete(this.key(rel));
    // A local folder stays (as it always did); the removal is made durable like a write.
    await rm(local, { force: true });
    await syncDir(dirname(local));
  }

  /** The names of the files directly in a state folder (`checkpoints`, `runs`), temp files left out. */
  async names(folder: string): Promise<string[]> {
    const prefix = this.key(`${folder}/`);
    const keys = await this.location.storage.list(prefix);
    return keys
      .map((k) => k.slice(prefix.length))
      .filter((n) => n !== '' && !n.includes('/') && !isTempFile(n))
      .sort();
  }

  /**
   * The folders directly in a local state folder (an object store has none): a folder where a
   * state file goes (`checkpoints/<pipeline>.json/`) holds no file to list, yet it must be named,
   * not passed over as if nothing were there.
   */
  async folders(folder: string): Promise<string[]> {
    const local = this.location.storage.localPath(this.key(folder));
    if (local === undefined) return [];
    const entries = await readdir(local, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
      throw e;
    });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  }

  async modifiedAt(rel: string): Promise<number | undefined> {
    return this.location.storage.modifiedAt?.(this.key(rel));
  }

  /** Temp files a killed save left in a local state folder; an object store has none (a PUT is whole). */
  async cleanStale(folder: string): Promise<string[]> {
    const local = this.location.storage.localPath(this.key(folder));
    return local === undefined ? [] : removeStaleTempFiles(local);
  }
}
