/**
 * Deletes the files under a table that its newest snapshot no longer references, once they are
 * older than the retention: a removed file (a tombstone) from its `deletionTimestamp`, a file the
 * log never named (an orphan of a crashed writer) from its age in the store. A reader holding an
 * older snapshot can finish within the retention. Never touched: `_delta_log/`, any hidden path
 * (a segment starting with `_` or `.`, as Delta's vacuum skips them), and any live file. An orphan
 * whose age the store cannot tell is kept (it may be a file being committed right now).
 * Only `.parquet` files are the table's: the Arrow sink may write `.arrow` files into the same
 * dataset folder, and they are no orphans of the Delta table.
 */
import type { LakeStorage } from '../storage/lake-storage.js';
import { modifiedAtOf } from '../storage/modified-at.js';
import { readDeltaSnapshot, type DeltaSnapshot } from './delta-snapshot.js';

export interface VacuumOptions {
  retentionMs: number;
  now: number;
  /** List what would be deleted, delete nothing. */
  dryRun?: boolean;
  /** Which keys can be the table's data files; default `.parquet`. */
  fileSuffix?: string;
  /** When an object was last written, epoch ms; default: the storage's modifiedAt (mtime, S3 LastModified), else unknown. */
  modifiedAt?: (key: string) => Promise<number | undefined>;
  /**
   * Throws when the vacuum may no longer delete (its lease on the lake was lost): checked before each
   * file, so a vacuum paused past its lease stops instead of deleting under the new holder.
   */
  guard?: () => void;
  /** The table's newest snapshot, when the caller has read it already (else it is read here). */
  snapshot?: DeltaSnapshot;
}

export interface VacuumResult {
  /** The snapshot version vacuumed against; undefined: no table. */
  version?: number;
  /** Keys deleted (or, on a dry run, that would be). */
  deleted: string[];
  /** Unreferenced keys kept because they are younger than the retention or of unknown age. */
  kept: string[];
}

function hidden(relative: string): boolean {
  return relative.split('/').some((segment) => segment.startsWith('_') || segment.startsWith('.'));
}

export async function vacuumDelta(storage: LakeStorage, tableKey: string, options: VacuumOptions): Promise<VacuumResult> {
  const snapshot = options.snapshot ?? (await readDeltaSnapshot(storage, tableKey));
  if (snapshot === undefined) return { deleted: [], kept: [] };
  const horizon = options.now - options.retentionMs;
  // The backend's own object times (S3 LastModified) when it has them, else a local file's mtime.
  const modifiedAt = options.modifiedAt ?? modifiedAtOf(storage);
  const prefix = tableKey === '' ? '' : `${tableKey}/`;
  const deleted: string[] = [];
  const kept: string[] = [];
  for (const key of (await storage.list(prefix)).sort()) {
    const relative = key.slice(prefix.length);
    if (!relative.endsWith(options.fileSuffix ?? '.parquet') || hidden(relative) || snapshot.files.has(relative)) continue;
    const tombstone = snapshot.tombstones.get(relative);
    const since = tombstone !== undefined ? tombstone.deletionTimestamp : await modifiedAt(key);
    if (since === undefined || since > horizon) {
      kept.push(key);
      continue;
    }
    deleted.push(key);
  }
  if (!options.dryRun) {
    for (const key of deleted) {
      options.guard?.();
      await storage.delete(key);
    }
  }
  return { version: snapshot.version, deleted, kept };
}
