/**
 * Probe objects a killed run left under `_quotelake/probe/` (the write probe, the conditional-create
 * probe): a probe lives for the milliseconds between its PUT and its DELETE, so one older than a
 * lease was left by a run killed in between, and nothing else would ever remove it. The lease holder
 * removes those at start; a contender's probe in flight is seconds old at most and stays.
 */
import { LAKE_DIR } from './lake-paths.js';
import type { LakeStorage } from './storage/lake-storage.js';

export const PROBE_DIR = `${LAKE_DIR}/probe`;

/** Deletes the probes written before `now - olderThanMs` (by the store's clock); returns how many. */
export async function removeStaleProbes(storage: LakeStorage, now: number, olderThanMs: number): Promise<number> {
  let removed = 0;
  for (const key of await storage.list(`${PROBE_DIR}/`)) {
    const at = await storage.modifiedAt?.(key);
    if (at === undefined || at >= now - olderThanMs) continue;
    await storage.delete(key);
    removed++;
  }
  return removed;
}
