/**
 * The local file system as a LakeStorage: keys are paths under the output root (confined to it),
 * `commit` is a rename within one file system plus an fsync of the target folder, `publish` is the
 * one atomic write of src/core, and empty folders are removed when their last object is deleted.
 */
import { randomBytes } from 'node:crypto';
import { link, open, readdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { makeDir } from '../../core/make-dir.js';
import { dirname, join, relative, sep } from 'node:path';
import { syncDir, TEMP_MARKER, writeDurable, writeFileAtomic } from '../../core/atomic-write.js';
import { insideRoot } from '../partition-path.js';
import { inKeyOrder, type LakeStorage } from './lake-storage.js';

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export function localStorage(root: string): LakeStorage {
  const path = (key: string): string => insideRoot(root, key);

  /** Remove the now-empty folders above `file`, up to (not including) the root. */
  async function pruneParents(file: string): Promise<void> {
    let dir = dirname(file);
    while (relative(root, dir) !== '' && !relative(root, dir).startsWith('..')) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone while another folder holds files)
      }
      dir = dirname(dir);
    }
  }

  return {
    root,
    async put(key, data) {
      await writeDurable(path(key), data);
    },
    async publish(key, data) {
      await writeFileAtomic(path(key), data);
    },
    async putIfAbsent(key, data) {
      // Written aside, then linked: the object appears whole, and link fails if the key exists.
      const target = path(key);
      // A temp name every sweep recognises (TEMP_MARKER), should the process die before the unlink.
      const temp = `${target}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`;
      await writeDurable(temp, data);
      try {
        await link(temp, target);
        return true;
      } catch (error) {
        if (code(error) === 'EEXIST') return false;
        throw error;
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    },
    async commit(from, to) {
      const dst = path(to);
      await makeDir(dirname(dst));
      await rename(path(from), dst);
      await syncDir(dirname(dst));
    },
    async read(key) {
      try {
        return await readFile(path(key));
      } catch (error) {
        if (code(error) === 'ENOENT') return undefined;
        // readFile of a folder fails without naming it (EISDIR, read): the message must say which.
        if (code(error) === 'EISDIR' && error instanceof Error && (error as NodeJS.ErrnoException).path === undefined) (error as NodeJS.ErrnoException).path = path(key);
        throw error;
      }
    },
    async readRange(key, offset, length) {
      const handle = await open(path(key), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async size(key) {
      try {
        return (await stat(path(key))).size;
      } catch (error) {
        if (code(error) === 'ENOENT') return undefined;
        throw error;
      }
    },
    async modifiedAt(key) {
      try {
        return Math.trunc((await stat(path(key))).mtimeMs);
      } catch (error) {
        if (code(error) === 'ENOENT') return undefined;
        throw error;
      }
    },
    async exists(key) {
      try {
        await stat(path(key));
        return true;
      } catch {
        return false;
      }
    },
    async list(prefix, options) {
      const base = prefix === '' ? root : path(prefix);
      let entries: string[];
      try {
        entries = (await readdir(base, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name));
      } catch (error) {
        if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return [];
        throw error;
      }
      const keys = entries.map((f) => relative(root, f).split(sep).join('/'));
      return options === undefined ? keys : inKeyOrder(keys, options);
    },
    async delete(key) {
      const file = path(key);
      await rm(file, { force: true });
      await pruneParents(file);
    },
    async deletePrefix(prefix) {
      const dir = path(prefix);
      await rm(dir, { recursive: true, force: true });
      await pruneParents(dir);
    },
    localPath: path,
  };
}
