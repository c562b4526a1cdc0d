/**
 * The live files of a dataset, as its manifest lists them (never a directory walk: a folder may
 * hold files a commit retired or a crashed run left), with the hive keys of each file's path.
 */
import { join, posix } from 'node:path';
import { manifestedTables, readManifest, type Manifest, type ManifestFile, type TableFormat } from '../commit/manifest.js';
import { partitionKeys } from '../partition-path.js';

export type LakeFormat = TableFormat;

export interface LakeFile {
  readonly dataset: string;
  readonly format: LakeFormat;
  /** Relative to the dataset folder, as in the manifest. */
  readonly path: string;
  /** Absolute (or output-relative, as the output root was given). */
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

export function lakeFilesOf(outputDir: string, dataset: string, format: LakeFormat, manifest: Manifest): LakeFile[] {
  return manifest.files.map((f) => {
    const partition = posix.dirname(f.path);
    return { dataset, format, path: f.path, absPath: join(outputDir, dataset, f.path), partition, hive: partitionKeys(partition), listed: f };
  });
}

/** A dataset's manifest and live files; undefined when the lake has no manifest for it. */
export async function lakeDataset(outputDir: string, dataset: string, format: LakeFormat): Promise<LakeDataset | undefined> {
  const manifest = await readManifest(outputDir, dataset, format);
  return manifest ? { dataset, format, manifest, files: lakeFilesOf(outputDir, dataset, format, manifest) } : undefined;
}

/** Every (dataset, format) with a manifest under `_quotelake/manifests/`, sorted. */
export function lakeDatasets(outputDir: string): Promise<{ dataset: string; format: LakeFormat }[]> {
  return manifestedTables(outputDir);
}
