/**
 * The live files of a dataset, as its manifest lists them (never a directory walk: a folder may
 * hold files a commit retired or a crashed run left), with the hive keys of each file's path and
 * the storage they are read from (an output folder, or any LakeStorage such as a bucket).
 */
import { join, posix } from 'node:path';
import { manifestedTables, readManifest, type Manifest, type ManifestFile, type TableFormat } from '../commit/manifest.js';
import { partitionKeys } from '../partition-path.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { storageOf, type LakeLocation } from '../storage/storage-of.js';

export type LakeFormat = TableFormat;

export interface LakeFile {
  readonly dataset: string;
  readonly format: LakeFormat;
  /** Relative to the dataset folder, as in the manifest. */
  readonly path: string;
  /** Where the file is read from, and its key there (relative to the lake root: `<dataset>/<path>`). */
  readonly storage: LakeStorage;
  readonly key: string;
  /** For messages and local tools: the file's path on this machine (as the output root was given), else the storage's URL of it. */
  readonly absPath: string;
  /** The partition folder, e.g. `interval=1m/year=2026/date=2026-11-21`. */
  readonly partition: string;
  /** `key=value` segments of the partition path, e.g. `{ interval: '1m', year: '2026', ... }`. */
  readonly hive: Readonly<Record<string, string>>;
  /** What the manifest says about the file: rows, bytes, key ranges. */
  readonly listed: ManifestFile;
}

export interface LakeDataset {
  readonly dataset: string;
  readonly format: LakeFormat;
  readonly manifest: Manifest;
  readonly files: readonly LakeFile[];
}

export function lakeFilesOf(where: LakeLocation, dataset: string, format: LakeFormat, manifest: Manifest): LakeFile[] {
  const storage = storageOf(where);
  return manifest.files.map((f) => {
    const partition = posix.dirname(f.path);
    const key = posix.join(dataset, f.path);
    // A folder given as a path keeps its spelling (relative stays relative), as before storages.
    const absPath = typeof where === 'string' ? join(where, dataset, f.path) : (storage.localPath(key) ?? `${storage.root}/${key}`);
    return { dataset, format, path: f.path, storage, key, absPath, partition, hive: partitionKeys(partition), listed: f };
  });
}

/** A dataset's manifest and live files; undefined when the lake has no manifest for it. */
export async function lakeDataset(where: LakeLocation, dataset: string, format: LakeFormat): Promise<LakeDataset | undefined> {
  const storage = storageOf(where);
  const manifest = await readManifest(storage, dataset, format);
  return manifest ? { dataset, format, manifest, files: lakeFilesOf(where, dataset, format, manifest) } : undefined;
}

/** Every (dataset, format) with a manifest under `_quotelake/manifests/`, sorted. */
export function lakeDatasets(where: LakeLocation): Promise<{ dataset: string; format: LakeFormat }[]> {
  return manifestedTables(where);
}
