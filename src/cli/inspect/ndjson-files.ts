/**
 * The NDJSON files an output folder holds beside its lake (an ndjson sink whose `path` is a file
 * writes them there, under a folder of the user's own): they are no lake dataset, so inspect reads
 * none of them, but it names them, so an output holding only such files does not read as empty.
 * Found by name (`*.ndjson`, `*.jsonl`) and, where the state is the output's own, as the files the
 * runs recorded committing (a sink path may end otherwise). The lake's own places (dataset folders,
 * `_quotelake/`, `.state/`, any name starting with `_` or `.`) are never walked: a sink path cannot
 * lie there, and a Parquet tree of thousands of files would cost the walk its time.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { DATASETS } from '../../core/records.js';
import { isTempFile } from '../../core/atomic-write.js';

export interface NdjsonFileInfo {
  /** Relative to the output folder, with `/`. */
  readonly path: string;
  readonly bytes: number;
}

/** A folder tree of the user's beside the lake is walked this far at most (entries seen). */
const MAX_ENTRIES = 20_000;

const NDJSON_NAME = /\.(ndjson|jsonl)$/i;

/** Outside the lake's places, as the ndjson sink's validation requires of its path. */
function userPlace(relative: string): boolean {
  const parts = relative.split('/');
  // `..` and an empty part (an absolute path) start outside the output's own folders too.
  if (parts.some((p) => p === '' || p.startsWith('.') || p.startsWith('_'))) return false;
  return !(DATASETS as readonly string[]).includes(parts[0]!);
}

/** `recorded`: paths (relative to the output) the runs recorded committing. */
export async function ndjsonFilesOf(output: string, recorded: Iterable<string> = []): Promise<NdjsonFileInfo[]> {
  const found = new Map<string, number>();
  let seen = 0;
  const walk = async (dir: string, relative: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (++seen > MAX_ENTRIES) return;
      const rel = relative === '' ? e.name : `${relative}/${e.name}`;
      if (!userPlace(rel)) continue;
      if (e.isDirectory()) await walk(join(dir, e.name), rel);
      else if (e.isFile() && NDJSON_NAME.test(e.name) && !isTempFile(e.name)) found.set(rel, (await stat(join(dir, e.name)).catch(() => undefined))?.size ?? 0);
    }
  };
  await walk(output, '');
  for (const path of recorded) {
    const rel = path.split(sep).join('/');
    if (found.has(rel) || !userPlace(rel) || isTempFile(rel)) continue;
    const st = await stat(join(output, rel)).catch(() => undefined);
    if (st?.isFile()) found.set(rel, st.size);
  }
  return [...found.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([path, bytes]) => ({ path, bytes }));
}
