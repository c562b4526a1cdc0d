/**
 * When an object of a lake was last written (epoch ms), as retention rules measure it: the
 * backend's own time (S3 LastModified) when it has one, else a local file's mtime; undefined when
 * neither can tell (such an object is kept by every rule that asks).
 */
import { stat } from 'node:fs/promises';
import type { LakeStorage } from './lake-storage.js';

export function modifiedAtOf(storage: LakeStorage): (key: string) => Promise<number | undefined> {
  if (storage.modifiedAt) return (key) => storage.modifiedAt!(key);
  return async (key) => {
    const path = storage.localPath(key);
    if (path === undefined) return undefined;
    try {
      return (await stat(path)).mtimeMs;
    } catch {
      return undefined;
    }
  };
}
