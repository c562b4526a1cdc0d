/**
 * `mkdir -p`, one level at a time. Node 20's `mkdir(path, { recursive: true })` loops forever (at
 * full CPU, and unkillable by a graceful stop) where a parent exists but refuses children with
 * ENOENT, as /proc and /sys do: `--output /proc/nope` hung there. Here a missing folder whose parent
 * exists and still cannot be made is an error, not a retry.
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A folder exists at `dir` (EEXIST on mkdir can also mean a file of that name). */
async function existingFolder(dir: string, error: unknown): Promise<void> {
  const s = await stat(dir).catch(() => undefined);
  if (s?.isDirectory()) return;
  const notDir = new Error(`ENOTDIR: not a directory, mkdir '${dir}'`) as NodeJS.ErrnoException;
  Object.assign(notDir, { code: 'ENOTDIR', syscall: 'mkdir', path: dir, cause: error });
  throw notDir;
}

export async function makeDir(path: string): Promise<void> {
  const missing: string[] = [];
  let dir = resolve(path);
  // Up from the target to the first folder that exists (usually the target itself: one syscall).
  for (;;) {
    try {
      await mkdir(dir);
      break;
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EEXIST') {
        await existingFolder(dir, error);
        break;
      }
      const parent = dirname(dir);
      if (code !== 'ENOENT' || parent === dir) throw error;
      missing.push(dir);
      dir = parent;
    }
  }
  // Then down again; ENOENT now means the parent exists and refuses this child: thrown, never retried.
  for (const child of missing.reverse()) {
    try {
      await mkdir(child);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
      await existingFolder(child, error);
    }
  }
}
