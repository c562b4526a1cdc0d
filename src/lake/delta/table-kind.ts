/**
 * Whether a dataset is a Delta table (hive files plus a `_delta_log/`) or plain hive files, and
 * which one a sink writes when the pipeline does not say: a Delta log on object storage (where no
 * rename swaps a partition and readers need the log for snapshots), plain hive on a local folder
 * (no change for the lakes that exist). A storage without a local path is remote.
 */
import type { LakeStorage } from '../storage/lake-storage.js';
import { logPrefix, parseLogListing } from './delta-paths.js';
import { MANIFESTS_DIR } from '../lake-paths.js';
import { readManifest, type Manifest } from '../commit/manifest.js';

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

/** Whether a `_delta_log/` listing names a version to read (a JSON commit or a checkpoint). */
function namesVersion(tableKey: string, keys: readonly string[]): boolean {
  const listing = parseLogListing(tableKey, keys);
  return listing.commits.length > 0 || listing.checkpoints.length > 0;
}

/**
 * Whether a Parquet dataset with live files was written as a Delta table (its manifest records it,
 * or a `_delta_log/` entry is left) and its log holds no version any more: deleted, or lost with a
 * disk or a partial restore. Delta readers no longer open it, and a commit would start a new table
 * of its own files only, so nothing writes it until `quotelake repair` writes the log again.
 * One listing of a few keys answers it for a log in use (versions sort after a `.`-named temporary
 * file and before `_last_checkpoint`); the whole, then short, listing only for one without them.
 */
export async function lostDeltaLog(storage: LakeStorage, dataset: string, manifest: Manifest | undefined): Promise<boolean> {
  if (!mayHaveLostLog(manifest)) return false;
  return lostIn(storage, dataset, manifest, await storage.list(logPrefix(dataset), { limit: 8 }));
}

/** Both answers a commit needs (a log entry at all: hasDeltaLog; a lost log: lostDeltaLog) from one listing. */
export async function deltaLogState(storage: LakeStorage, dataset: string, manifest: Manifest | undefined): Promise<{ logged: boolean; lost: boolean }> {
  const head = await storage.list(logPrefix(dataset), { limit: 8 });
  return { logged: head.length > 0, lost: mayHaveLostLog(manifest) && (await lostIn(storage, dataset, manifest, head)) };
}

function mayHaveLostLog(manifest: Manifest | undefined): manifest is Manifest {
  return manifest !== undefined && manifest.files.length > 0 && manifest.format === 'parquet' && manifest.table !== 'hive';
}

/** `head`: the first 8 keys of the dataset's `_delta_log/`. */
async function lostIn(storage: LakeStorage, dataset: string, manifest: Manifest, head: readonly string[]): Promise<boolean> {
  if (manifest.table !== 'delta' && head.length === 0) return false;
  if (namesVersion(dataset, head)) return false;
  return !namesVersion(dataset, head.length < 8 ? head : await storage.list(logPrefix(dataset)));
}

/**
 * What a dataset already is, for a sink told no `table`: delta when it has a log or its manifest
 * records it (a table whose log was lost is still one), hive when it holds committed Parquet files
 * without either (the two cases checkTableKind refuses to switch), undefined when it holds
 * neither (a new dataset takes the storage's default).
 */
export async function existingTableKind(storage: LakeStorage, dataset: string): Promise<TableKind | undefined> {
  if (await hasDeltaLog(storage, dataset)) return 'delta';
  const manifest = await readManifest(storage, dataset, 'parquet');
  if (manifest?.table === 'delta') return 'delta';
  return (manifest?.files.length ?? 0) > 0 ? 'hive' : undefined;
}
