/** What the manifests say each live file of a dataset holds: its path and the key range per code. */
import type { HeldFile } from '../core/definition.js';
import { readManifest } from './commit/manifest.js';
import type { LakeStorage } from './storage/lake-storage.js';

/** Live files of a dataset in every table format the output holds (Parquet and Arrow may sit side by side), with their key ranges; a missing or unreadable manifest holds nothing. */
export async function heldKeys(storage: LakeStorage, dataset: string): Promise<HeldFile[]> {
  const out: HeldFile[] = [];
  for (const format of ['parquet', 'arrow']) {
    const manifest = await readManifest(storage, dataset, format).catch(() => undefined);
    for (const f of manifest?.files ?? []) out.push({ path: f.path, ranges: f.ranges });
  }
  return out;
}
