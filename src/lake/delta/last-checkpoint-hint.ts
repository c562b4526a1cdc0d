/** `_last_checkpoint`'s version: a hint only, so a torn or foreign file reads as none. */
import type { LakeStorage } from '../storage/lake-storage.js';
import { lastCheckpointKey } from './delta-paths.js';

export async function lastCheckpointHint(storage: LakeStorage, tableKey: string): Promise<number | undefined> {
  const bytes = await storage.read(lastCheckpointKey(tableKey));
  if (bytes === undefined) return undefined;
  try {
    const version = (JSON.parse(Buffer.from(bytes).toString('utf8')) as { version?: unknown }).version;
    return typeof version === 'number' && Number.isSafeInteger(version) ? version : undefined;
  } catch {
    return undefined; // the listing still names every checkpoint
  }
}
