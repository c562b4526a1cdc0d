/**
 * Where a sink's encode workers and spills write files of their own. On the local backend that is
 * the staging key's own path (the commit is then a rename). A remote backend (an object store) has
 * no local path, so each run gets a scratch folder `<tmpdir>/quotelake-<lake>-<runToken>/<owner>/` (lake:
 * a hash of the storage's root, so two lakes' runs never share one even with equal run ids; owner:
 * the sink's `<dataset>-<format>`, so two sinks of one run never remove each other's) mirroring the
 * staging keys: a staged file is written there, streamed to its staging key (multipart above one
 * part, so memory stays near the store's part size × queue whatever the file's length) and removed;
 * spills never leave the machine. The folder is removed at commit, abort and close, and by
 * `removeStale` when a later run finds what a killed one left.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, rm, rmdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { LAKE_DIR } from '../lake-paths.js';
import { insideRoot } from '../partition-path.js';
import type { LakeStorage } from '../storage/lake-storage.js';

/** What a backend that can take a stream offers (S3Storage); others get the bytes in memory. */
interface StreamingStorage extends LakeStorage {
  putStream(key: string, body: Readable): Promise<void>;
}

const canStream = (storage: LakeStorage): storage is StreamingStorage => typeof (storage as Partial<StreamingStorage>).putStream === 'function';

/** The prefix of every scratch folder under the system's temp folder. */
const SCRATCH_PREFIX = 'quotelake-';

/** The scratch folder's name of one run on one lake (see the file's comment). */
export function scratchFolderName(storage: Pick<LakeStorage, 'root'>, runToken: string): string {
  const lake = createHash('sha256').update(storage.root).digest('hex').slice(0, 8);
  return `${SCRATCH_PREFIX}${lake}-${runToken}`;
}

export class LocalScratch {
  /** Undefined on the local backend: staging keys are written in place. */
  readonly folder: string | undefined;

  private readonly runFolder: string | undefined;

  constructor(
    private readonly storage: LakeStorage,
    runToken: string,
    owner: string,
    base: string = tmpdir(),
  ) {
    this.runFolder = storage.localPath(LAKE_DIR) === undefined ? join(base, scratchFolderName(storage, runToken)) : undefined;
    this.folder = this.runFolder === undefined ? undefined : insideRoot(this.runFolder, owner);
  }

  /** True when staged files must be uploaded after they are written. */
  get remote(): boolean {
    return this.folder !== undefined;
  }

  /** The local file a writer writes for `key` (a staging key). */
  path(key: string): string {
    return this.folder === undefined ? this.storage.localPath(key)! : insideRoot(this.folder, key);
  }

  /** Make the file written at path(key) the staged object `key` (a no-op locally); the local copy is removed. */
  async upload(key: string): Promise<void> {
    if (this.folder === undefined) return;
    const file = this.path(key);
    if (canStream(this.storage)) await this.storage.putStream(key, createReadStream(file));
    else await this.storage.put(key, await readFile(file));
    await unlink(file);
  }

  /** Forget a scratch-only file (a spill read back): locally it is a staged key like any other. */
  async discard(key: string): Promise<void> {
    if (this.folder === undefined) await this.storage.delete(key);
    else await unlink(this.path(key)).catch(() => undefined);
  }

  /** Remove this run's scratch folder (nothing to do locally: staging is removed through the storage). */
  async remove(): Promise<void> {
    if (this.folder === undefined) return;
    await rm(this.folder, { recursive: true, force: true });
    // The run's folder goes with its last owner (rmdir refuses while another sink's is inside).
    await rmdir(this.runFolder!).catch(() => undefined);
  }
}

/**
 * Scratch folders of runs that died before removing theirs, given the run tokens whose staging a
 * recovery found: only those (a live run on another lake has a token of its own and is left alone).
 */
export async function removeStaleScratch(storage: Pick<LakeStorage, 'root'>, runTokens: Iterable<string>, base: string = tmpdir()): Promise<void> {
  const names = new Set(await readdir(base).catch(() => [] as string[]));
  for (const token of runTokens) {
    const name = scratchFolderName(storage, token);
    if (names.has(name)) await rm(join(base, name), { recursive: true, force: true });
  }
}
