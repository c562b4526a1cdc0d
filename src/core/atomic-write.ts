/**
 * Every state file is written the same way: a temp file beside the target, fsync, rename, fsync of
 * the directory. A reader sees the old file or the new one, never half of either.
 */
import { randomBytes } from 'node:crypto';
import { link, open, readdir, rename, rm } from 'node:fs/promises';
import { makeDir } from './make-dir.js';
import { basename, dirname, join } from 'node:path';

/** Temp files carry this marker so a later run can tell them from real files and remove them. */
export const TEMP_MARKER = '.tmp-';

export function isTempFile(name: string): boolean {
  return basename(name).includes(TEMP_MARKER);
}

/** fsync a directory, so a rename in it survives power loss (where the file system allows). */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse to fsync a directory; the rename itself is still atomic.
  }
}

/**
 * The file an error happened on, added where Node leaves it out: a write or fsync on an open handle
 * (ENOSPC, EIO) carries no path, and "no space left" without the file leaves the user guessing where.
 */
export function withPath<E>(error: E, path: string): E {
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).path === undefined) {
    (error as NodeJS.ErrnoException).path = path;
  }
  return error;
}

/** Write `data` to `path` and fsync it (no rename: for files not yet visible to readers, e.g. staged). */
export async function writeDurable(path: string, data: Uint8Array | string): Promise<void> {
  await makeDir(dirname(path));
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    throw withPath(error, path);
  } finally {
    await handle.close();
  }
}

export interface AtomicWriteOptions {
  /**
   * false: skip the fsyncs. Still atomic against a killed process (rename), but not against power
   * loss; for records such as an in-progress run manifest, never for state.
   */
  readonly durable?: boolean;
  /**
   * true: never replace an existing file; fails with EEXIST instead. The temp file is linked into
   * place (atomic and exclusive, where a rename would replace) and then removed.
   */
  readonly noClobber?: boolean;
  /**
   * false: the folder must exist (ENOENT otherwise), for a file whose folder another program reads
   * and a missing one means it no longer does.
   */
  readonly makeFolder?: boolean;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  if (options.makeFolder !== false) await makeDir(dir);
  const temp = join(dir, `.${basename(path)}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw withPath(error, temp);
  }
  await handle.close();
  try {
    if (options.noClobber) await link(temp, path);
    else await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (options.noClobber) await rm(temp, { force: true });
  if (durable) await syncDir(dir);
}

/** Remove temp files a crashed writer left in `dir` (not recursive). Returns the names removed. */
export async function removeStaleTempFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const stale = names.filter(isTempFile);
  await Promise.all(stale.map((n) => rm(join(dir, n), { force: true })));
  return stale;
}
