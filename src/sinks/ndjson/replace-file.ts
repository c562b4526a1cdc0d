/**
 * A whole NDJSON file replaced atomically: the new content goes to `.<file>.tmp-<runId>` in the same
 * folder, reaches the disk, then is renamed over the file, so a reader sees the old file or the new
 * one, never half. A run killed before the rename leaves only its temp file, which removeStaleTemps
 * deletes when the next run starts. The leading dot hides it from `ls` and shell globs
 * (`cat exports/*`), which would otherwise take a killed run's half file for data.
 */
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { makeDir } from '../../core/make-dir.js';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { syncDir } from '../../core/atomic-write.js';
import { safeFileToken } from '../../lake/partition-path.js';

export function tempPathOf(path: string, runId: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${safeFileToken(runId)}`);
}

/** Writes `lines` (each without its newline) as the new content of `path`; returns the bytes written. */
export async function replaceFile(path: string, tmp: string, lines: Iterable<string>, chunkBytes: number): Promise<number> {
  await makeDir(dirname(path));
  let bytes = 0;
  try {
    const handle = await open(tmp, 'w');
    try {
      let text = '';
      for (const line of lines) {
        text += `${line}\n`;
        if (text.length >= chunkBytes) {
          await handle.writeFile(text);
          bytes += Buffer.byteLength(text);
          text = '';
        }
      }
      if (text.length > 0) {
        await handle.writeFile(text);
        bytes += Buffer.byteLength(text);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  await syncDir(dirname(path));
  return bytes;
}

/** Deletes the temp files killed runs left beside `path` (the caller holds the output lock). */
export async function removeStaleTemps(path: string): Promise<void> {
  // The hidden name, and the visible one earlier versions gave their temp files.
  const prefixes = [`.${basename(path)}.tmp-`, `${basename(path)}.tmp-`];
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const name of names) if (prefixes.some((p) => name.startsWith(p))) await rm(join(dirname(path), name), { force: true });
}

/**
 * Refuses a target that no commit could replace: a folder where the file goes, or a file where one
 * of its folders goes. Checked when a run starts, so the mistake costs no request (it was found at
 * the first commit, after every row had been fetched). `shown`: the path relative to the output.
 */
export async function refuseUnwritableTarget(path: string, shown: string): Promise<void> {
  const kind = async (p: string) => (await stat(p).catch(() => undefined))?.isDirectory();
  if ((await kind(path)) === true) {
    throw new ConfigError(`ndjson: sink path ${shown} is a folder (${path}): give the path of a file, or move the folder away`);
  }
  // The folders the path goes through, below the output folder, outermost first.
  const parts = shown.split('/').slice(0, -1);
  let folder = path;
  const folders = parts.map(() => (folder = dirname(folder))).reverse();
  for (const [i, f] of folders.entries()) {
    if ((await kind(f)) === false) {
      throw new ConfigError(`ndjson: sink path ${shown} goes through ${parts.slice(0, i + 1).join('/')}, which is a file (${f}): choose another path, or move the file away`);
    }
  }
}
