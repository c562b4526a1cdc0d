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

export const LAKE_DIR = '_quotelake';
export const STAGING_DIR = posix.join(LAKE_DIR, 'staging');
export const MANIFESTS_DIR = posix.join(LAKE_DIR, 'manifests');

export function manifestRelPath(dataset: string, format: string): string {
  return posix.join(MANIFESTS_DIR, `${dataset}.${format}.json`);
}

export function journalRelPath(runToken: string, dataset: string, format: string): string {
  return posix.join(STAGING_DIR, runToken, `${dataset}.${format}.journal.json`);
}
