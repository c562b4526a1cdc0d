/**
 * Where the lake keeps what is not data: one folder, `<output>/_quotelake/`, beside the dataset
 * folders and never inside one, so a reader pointed at a dataset folder (pyarrow, polars, Spark,
 * a DuckDB glob) finds data files only; engines skip `_`-prefixed names at the root anyway.
 *
 *   _quotelake/manifests/<dataset>.<format>.json   live files of a dataset (manifest.ts)
 *   _quotelake/staging/<run>/...                   files a run has not committed, its journals
 *
 * Paths here are relative to the output root, with `/` separators.
 */
import { posix } from 'node:path';
import { DATASETS } from '../core/records.js';

export const LAKE_DIR = '_quotelake';
export const STAGING_DIR = posix.join(LAKE_DIR, 'staging');
export const MANIFESTS_DIR = posix.join(LAKE_DIR, 'manifests');

export function manifestRelPath(dataset: string, format: string): string {
  return posix.join(MANIFESTS_DIR, `${dataset}.${format}.json`);
}

export function journalRelPath(runToken: string, dataset: string, format: string): string {
  return posix.join(STAGING_DIR, runToken, `${dataset}.${format}.journal.json`);
}

/**
 * Why a file of the user's at `relative` (under an output folder) would sit in the lake's own
 * places, or undefined: inside a dataset's folder (every file there is data to a glob reader, and
 * the file would shadow or break the folder), or under a name starting with `_` or `.`
 * (`_quotelake`, `_rejected`, `.state`: kept for what the runs read back, never for exports).
 */
export function lakeOwnedPathProblem(relative: string): string | undefined {
  const top = posix.normalize(relative).split('/')[0]!;
  if ((DATASETS as readonly string[]).includes(top)) return `is in the ${top} dataset's folder, which holds the lake's own data files`;
  if (top.startsWith('_') || top.startsWith('.')) return `is under ${top}, where the lake keeps its own files (names starting with _ or . are the lake's)`;
  return undefined;
}
