/**
 * The live files of a dataset, as its manifest lists them (never a directory walk: a folder may
 * hold files a commit retired or a crashed run left), with the hive keys of each file's path.
 */
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { isDataset } from '../datasets/index.js';
import { readManifest, type Manifest, type ManifestFile } from '../commit/manifest.js';
import { MANIFESTS_DIR } from '../lake-paths.js';

export type LakeFormat = 'parquet' | 'arrow';

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

export function hiveKeys(partition: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const seg of partition.split('/')) {
    const eq = seg.indexOf('=');
    if (eq <= 0) continue;
    const raw = seg.slice(eq + 1);
    try {
      out[seg.slice(0, eq)] = decodeURIComponent(raw);
    } catch {
      out[seg.slice(0, eq)] = raw; // not our encoding: keep it as written
    }
  }
  return out;
}

export function lakeFilesOf(outputDir: string, dataset: string, format: LakeFormat, manifest: Manifest): LakeFile[] {
  return manifest.files.map((f) => {
    const partition = posix.dirname(f.path);
    return { dataset, format, path: f.path, absPath: join(outputDir, dataset, f.path), partition, hive: hiveKeys(partition), listed: f };
  });
}

/** A dataset's manifest and live files; undefined when the lake has no manifest for it. */
export async function lakeDataset(outputDir: string, dataset: string, format: LakeFormat): Promise<LakeDataset | undefined> {
  const manifest = await readManifest(outputDir, dataset, format);
  return manifest ? { dataset, format, manifest, files: lakeFilesOf(outputDir, dataset, format, manifest) } : undefined;
}

/** Every (dataset, format) with a manifest under `_quotelake/manifests/`, sorted. */
export async function lakeDatasets(outputDir: string): Promise<{ dataset: string; format: LakeFormat }[]> {
  let names: string[];
  try {
    names = await readdir(join(outputDir, MANIFESTS_DIR));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: { dataset: string; format: LakeFormat }[] = [];
  for (const name of names.sort()) {
    const m = /^([a-z_]+)\.(parquet|arrow)\.json$/.exec(name);
    if (m && isDataset(m[1]!)) out.push({ dataset: m[1]!, format: m[2] as LakeFormat });
  }
  return out;
}
