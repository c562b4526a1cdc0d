/**
 * Where a table's Delta log and its manifest disagree on the live files. The manifest is
 * quotelake's commit point; a commit stranded half-way (its version logged, its journal deleted
 * before its manifest was published, as quotelake 0.1.0 let a run of another pipeline on the
 * output do) leaves the log naming files the manifest does not (rows quotelake never committed,
 * or a file since deleted, which a Delta reader fails on) and having removed files the manifest
 * still lists, so the next commit merging those fails as a conflict. `quotelake repair` mends it,
 * `quotelake inspect` flags it.
 */
import { hasDeltaLog, lostDeltaLog } from '../delta/table-kind.js';
import { readDeltaSnapshot } from '../delta/delta-snapshot.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { readManifest, type ManifestFile } from './manifest.js';

/** A file the Delta log names as live that the manifest does not list (path relative to the dataset folder). */
export interface UnlistedDeltaFile {
  readonly path: string;
  readonly bytes: number;
  readonly present: boolean;
}

export interface DeltaDrift {
  /** Live in the log, not listed by the manifest. */
  readonly unlisted: readonly UnlistedDeltaFile[];
  /** Listed by the manifest, not live in the log (removed by it, or never added). */
  readonly unlogged: readonly ManifestFile[];
  /**
   * The table's log holds no version at all (table-kind.ts lostDeltaLog): every live file is
   * `unlogged`, and mending it writes the log again from version 0.
   */
  readonly logLost?: true;
}

export const NO_DRIFT: DeltaDrift = { unlisted: [], unlogged: [] };

/** None without a log, or without a manifest to compare it with; every live file when the log is lost. */
export async function deltaDrift(storage: LakeStorage, dataset: string, format: string): Promise<DeltaDrift> {
  const manifest = await readManifest(storage, dataset, format);
  if (await lostDeltaLog(storage, dataset, manifest)) return { unlisted: [], unlogged: manifest!.files, logLost: true };
  if (!(await hasDeltaLog(storage, dataset))) return NO_DRIFT;
  const snapshot = await readDeltaSnapshot(storage, dataset);
  if (manifest === undefined || snapshot === undefined) return NO_DRIFT;
  const listed = new Set(manifest.files.map((f) => f.path));
  const unlisted: UnlistedDeltaFile[] = [];
  for (const [path, add] of snapshot.files) {
    if (!listed.has(path)) unlisted.push({ path, bytes: add.size, present: await storage.exists(`${dataset}/${path}`) });
  }
  unlisted.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { unlisted, unlogged: manifest.files.filter((f) => !snapshot.files.has(f.path)) };
}
