/**
 * The one rule for every file name built from input (a sink's `path`, a pipeline name, a run id, a
 * partition value from the service): it must land inside its root. Checked twice: `pathProblem` is
 * pure, so the config linter can refuse a pipeline before it runs; `confinePath` is the guard every
 * writer calls at run time, so a value that reached it another way still cannot escape.
 */
import { isAbsolute, resolve, sep } from 'node:path';
import { PathOutsideRootError } from './errors.js';

/** Longest file-name segment in bytes that common file systems (ext4, APFS, NTFS) all accept. */
export const MAX_SEGMENT_BYTES = 255;

/** Why `relative` cannot name a file under a root, or undefined when it can. */
export function pathProblem(relative: string): string | undefined {
  if (relative.length === 0) return 'is empty';
  if (relative.includes('\0')) return 'contains a NUL character';
  // A backslash is a separator on Windows: refused everywhere so a pipeline means the same on every host.
  if (relative.includes('\\')) return 'contains a backslash (use / between folders)';
  if (isAbsolute(relative) || /^[A-Za-z]:/.test(relative)) return 'is absolute';
  const long = relative.split('/').find((s) => Buffer.byteLength(s, 'utf8') > MAX_SEGMENT_BYTES);
  if (long !== undefined) return `has a name longer than ${MAX_SEGMENT_BYTES} bytes (${long.slice(0, 24)}…)`;
  const base = resolve('/root');
  const full = resolve(base, relative);
  if (full === base) return 'names the folder itself, not a file in it';
  if (!full.startsWith(base + sep)) return 'leads out of the folder (..)';
  return undefined;
}

/** `root` joined with `relative`, proven inside it; throws PathOutsideRootError otherwise. */
export function confinePath(root: string, relative: string, what = 'path'): string {
  const problem = pathProblem(relative);
  if (problem !== undefined) throw new PathOutsideRootError(what, relative, root, problem);
  const base = resolve(root);
  const full = resolve(base, relative);
  // Defence in depth: the pure check above resolved against a stand-in root.
  if (!full.startsWith(base + sep)) throw new PathOutsideRootError(what, relative, root, 'leads out of the folder');
  return full;
}

/** One file or folder name from input (no separators at all), inside `root`. */
export function confineName(root: string, name: string, what = 'name'): string {
  if (name.includes('/') || name === '.' || name === '..') throw new PathOutsideRootError(what, name, root, 'must be a single name, without / or dots alone');
  return confinePath(root, name, what);
}
