/**
 * A lake's identity: a random id in its layout file, drawn by the first run that writes datasets
 * there (or the first after an upgrade) and kept for good, also when the lake is moved or renamed.
 * Checkpoints record it: a state folder given to two outputs (`--state-dir`) would otherwise resume
 * the second one where the first stopped, and it would never get what came before.
 */
import { randomBytes } from 'node:crypto';
import type { LakeLocation } from '../storage/storage-of.js';
import { readLayoutFile, writeLayoutFile } from './layout-file.js';

/** The lake's id, drawn and recorded now if it has none (call under the output lock, after ensureLayout). */
export async function ensureLakeId(output: LakeLocation, now: Date): Promise<string> {
  const file = await readLayoutFile(output);
  if (file?.lakeId !== undefined) return file.lakeId;
  const lakeId = randomBytes(8).toString('hex');
  await writeLayoutFile(output, now, file?.migratedFrom, lakeId);
  return lakeId;
}

/** The lake's id, or null when it has none yet (a new output): for commands that only read. */
export async function readLakeId(output: LakeLocation): Promise<string | null> {
  return (await readLayoutFile(output))?.lakeId ?? null;
}
