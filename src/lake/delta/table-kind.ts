/**
 * Whether a dataset is a Delta table (hive files plus a `_delta_log/`) or plain hive files, and
 * which one a sink writes when the pipeline does not say: a Delta log on object storage (where no
 * rename swaps a partition and readers need the log for snapshots), plain hive on a local folder
 * (no change for the lakes that exist). A storage without a local path is remote.
 */
import type { LakeStorage } from '../storage/lake-storage.js';
import { logPrefix } from './delta-paths.js';
import { MANIFESTS_DIR } from '../lake-paths.js';
import { readManifest } from '../commit/manifest.js';

export const TABLE_KINDS = ['delta', 'hive'] as const;
export type TableKind = (typeof TABLE_KINDS)[number];

export function defaultTableFor(storage: LakeStorage): TableKind {
  // Any key will do (the root itself is no key): a remote backend has no local path for any.
  return storage.localPath(MANIFESTS_DIR) === undefined ? 'delta' : 'hive';
}

/** Whether the dataset's folder holds a Delta log (any entry under `<dataset>/_delta_log/`). */
export async function hasDeltaLog(storage: LakeStorage, tableKey: string): Promise<boolean> {
  // One key answers it: a long log is not listed whole for a yes.
  return (await storage.list(logPrefix(tableKey), { limit: 1 })).length > 0;
}

/**
 * What a dataset already is, for a sink told no `table`: delta when it has a log, hive when it holds
 * committed Parquet files without one (the two cases checkTableKind refuses to switch), undefined
 * when it holds neither (a new dataset takes the storage's default).
 */
export async function existingTableKind(storage: LakeStorage, dataset: string): Promise<TableKind | undefined> {
  if (await hasDeltaLog(storage, dataset)) return 'delta';
  const manifest = await readManifest(storage, dataset, 'parquet');
  return (manifest?.files.length ?? 0) > 0 ? 'hive' : undefined;
}
