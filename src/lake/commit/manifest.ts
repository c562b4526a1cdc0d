/**
 * `<output>/_quotelake/manifests/<dataset>.<format>.json`: the live files of a
 * dataset with rows, bytes, SHA-256 and their key ranges (per group, the lowest and highest
 * order value), so a later run can tell without reading a file whether new rows overlap it, and
 * where they fit, their time runs (time-runs.ts), so the coverage audit need not read it at all.
 *
 * Version 2 adds `retired`: files a commit replaced, no longer live but kept on disk for a grace
 * period so a reader that loaded the previous manifest can still open every file it lists. They are
 * deleted by a later commit or `quotelake compact` once `retiredAt` is older than the grace.
 */
import { SinkError } from '../../core/errors.js';
import type { Order } from '../datasets/dataset-spec.js';
import { DATASETS } from '../../core/records.js';
import { MANIFESTS_DIR, manifestRelPath } from '../lake-paths.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { localStorage } from '../storage/local-storage.js';
import { storageOf } from '../storage/storage-of.js';
import { upgradeToNewest } from '../../core/version-steps.js';
import { MANIFEST_VERSIONS } from './manifest-versions.js';
import type { TimeRuns } from './time-runs.js';

export const MANIFEST_VERSION = 2;

/** The formats a manifest can describe (the table sinks'). */
export type TableFormat = 'parquet' | 'arrow';

export interface ManifestFile {
  /** Relative to the dataset folder, e.g. `interval=1m/year=2026/date=2026-11-21/part-r1-00001.parquet`. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly ranges: Readonly<Record<string, readonly [Order, Order]>>;
  /**
   * Each group's row times as `[first, step, count]` runs in file order (time-runs.ts), when they
   * fit; absent otherwise, and in manifests of earlier versions. Optional, so no new version.
   */
  readonly times?: TimeRuns;
}

export interface RetiredFile {
  /** Relative to the dataset folder, like ManifestFile.path. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  /** ISO-8601 instant of the commit that replaced it. */
  readonly retiredAt: string;
}

export interface Manifest {
  readonly version: 2;
  readonly dataset: string;
  readonly format: string;
  readonly schemaVersion: string;
  readonly quotelakeVersion: string;
  readonly updatedAt: string;
  /**
   * Whether the dataset's commits keep a Delta log (`delta`) or not (`hive`), for a Parquet
   * dataset: what tells a table whose `_delta_log/` was lost from one that never had a log.
   * Absent in manifests written before it was recorded (the log's presence then says it).
   * Optional, so no new version.
   */
  readonly table?: 'delta' | 'hive';
  readonly files: readonly ManifestFile[];
  readonly retired: readonly RetiredFile[];
}

export function manifestKey(dataset: string, format: string): string {
  return manifestRelPath(dataset, format);
}

/** Absolute path of a local lake's manifest (for readers outside the lake that open it directly). */
export function manifestPath(outputDir: string, dataset: string, format: string): string {
  return localStorage(outputDir).localPath(manifestKey(dataset, format))!;
}

/** The manifest as written, undefined when the dataset has none. `where`: an output folder or a storage. */
export async function readManifest(where: LakeStorage | string, dataset: string, format: string): Promise<Manifest | undefined> {
  const storage = storageOf(where);
  const key = manifestKey(dataset, format);
  let bytes: Uint8Array | undefined;
  try {
    bytes = await storage.read(key);
  } catch (error) {
    throw new SinkError(`cannot read ${key} in ${storage.root}`, 'commit', error);
  }
  if (bytes === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    // Written whole (temp + rename) by every commit: a torn one is a disk's or a hand's, never a crash's.
    throw new SinkError(
      `${key} in ${storage.root} is not valid JSON`,
      'commit',
      error,
      'the manifest is the lake\'s record of its live files, and nothing reads or writes the dataset past a damaged one: restore it from a backup of the output (a Delta table\'s _delta_log still names its live files)',
    );
  }
  // The one point where a stored manifest becomes the current shape: an older version is brought
  // up step by step (manifest-versions.ts), a newer one is refused, never half-read.
  return upgradeToNewest(parsed, MANIFEST_VERSIONS, `${storage.root}/${key}`) as unknown as Manifest;
}

/** Publish a manifest atomically: a reader sees the previous one or this one. */
export async function writeManifest(storage: LakeStorage, manifest: Manifest): Promise<void> {
  await storage.publish(manifestKey(manifest.dataset, manifest.format), JSON.stringify(manifest, null, 1));
}

/** Every (dataset, format) with a manifest under `_quotelake/manifests/`, sorted. */
export async function manifestedTables(where: LakeStorage | string): Promise<{ dataset: string; format: TableFormat }[]> {
  const out: { dataset: string; format: TableFormat }[] = [];
  for (const key of (await storageOf(where).list(`${MANIFESTS_DIR}/`)).sort()) {
    const m = /^([a-z_]+)\.(parquet|arrow)\.json$/.exec(key.slice(MANIFESTS_DIR.length + 1));
    if (m && (DATASETS as readonly string[]).includes(m[1]!)) out.push({ dataset: m[1]!, format: m[2] as TableFormat });
  }
  return out;
}
