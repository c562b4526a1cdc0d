/**
 * `<output>/_quotelake/manifests/<dataset>.<format>.json`: the live files of a
 * dataset with rows, bytes, SHA-256 and their key ranges (per group, the lowest and highest
 * order value), so a later run can tell without reading a file whether new rows overlap it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SinkError } from '../../core/errors.js';
import type { Order } from '../datasets/dataset-spec.js';
import { manifestRelPath } from '../lake-paths.js';
import { upgradeToNewest } from '../../core/version-steps.js';
import { MANIFEST_VERSIONS, type RetiredFile } from './manifest-versions.js';

export type { RetiredFile } from './manifest-versions.js';

export interface ManifestFile {
  /** Relative to the dataset folder, e.g. `interval=1m/year=2026/date=2026-11-21/part-r1-00001.parquet`. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly ranges: Readonly<Record<string, readonly [Order, Order]>>;
}

export interface Manifest {
  readonly version: 2;
  readonly dataset: string;
  readonly format: string;
  readonly schemaVersion: string;
  readonly quotelakeVersion: string;
  readonly updatedAt: string;
  readonly files: readonly ManifestFile[];
  /** Files no longer live, kept on disk for a grace period (manifest-versions.ts). */
  readonly retired: readonly RetiredFile[];
}

export function manifestPath(outputDir: string, dataset: string, format: string): string {
  return join(outputDir, manifestRelPath(dataset, format));
}

export async function readManifest(outputDir: string, dataset: string, format: string): Promise<Manifest | undefined> {
  const path = manifestPath(outputDir, dataset, format);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SinkError(`cannot read ${path}`, 'commit', error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SinkError(`${path} is not valid JSON`, 'commit', error);
  }
  // Any older version is brought to the current shape; a newer one is refused, never half-read.
  return upgradeToNewest(parsed, MANIFEST_VERSIONS, path) as unknown as Manifest;
}
