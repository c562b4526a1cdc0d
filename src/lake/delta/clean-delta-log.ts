/**
 * Log cleanup (PROTOCOL.md "Metadata Cleanup"): a table written every minute logs 1,440 versions a
 * day, and a log that is never cleaned slows every listing of it and keeps each version readable
 * for ever. The commits and checkpoints older than the log retention go, as Delta's own cleanup
 * does: only those before the newest checkpoint that is itself older than the retention, so the
 * table's state stays whole from that checkpoint on (its first version from then on), and every
 * version within the retention stays readable (time travel). Nothing else under `_delta_log/`
 * (`_last_checkpoint`, which names a newer checkpoint, files of other writers) is touched.
 */
import type { LakeStorage } from '../storage/lake-storage.js';
import { modifiedAtOf } from '../storage/modified-at.js';
import { checkpointKey, commitKey, logPrefix, parseLogListing } from './delta-paths.js';

/** Delta's default `delta.logRetentionDuration`: 30 days. */
export const DEFAULT_LOG_RETENTION_MS = 30 * 86_400_000;

export interface LogCleanupOptions {
  readonly logRetentionMs: number;
  readonly now: number;
  readonly dryRun?: boolean;
  /** When an object was last written, epoch ms; default: the storage's modifiedAt, else a local file's mtime. */
  readonly modifiedAt?: (key: string) => Promise<number | undefined>;
  /** Throws when the cleanup may no longer delete (its lease on the lake was lost). */
  readonly guard?: () => void;
}

export interface LogCleanup {
  /** Log keys deleted (or, on a dry run, that would be), oldest first. */
  readonly deleted: string[];
  /** The table's first readable version afterwards (the checkpoint kept); undefined when nothing was old enough. */
  readonly historyFrom?: number;
}

export async function cleanDeltaLog(storage: LakeStorage, tableKey: string, options: LogCleanupOptions): Promise<LogCleanup> {
  const modifiedAt = options.modifiedAt ?? modifiedAtOf(storage);
  const horizon = options.now - options.logRetentionMs;
  const { commits, checkpoints } = parseLogListing(tableKey, await storage.list(logPrefix(tableKey)));
  // The newest checkpoint written before the horizon: the table is whole from it, whatever goes before.
  let keepFrom: number | undefined;
  for (const version of [...checkpoints].reverse()) {
    const at = await modifiedAt(checkpointKey(tableKey, version));
    if (at !== undefined && at <= horizon) {
      keepFrom = version;
      break;
    }
  }
  if (keepFrom === undefined) return { deleted: [] };
  const older = [...commits.filter((v) => v < keepFrom).map((v) => commitKey(tableKey, v)), ...checkpoints.filter((v) => v < keepFrom).map((v) => checkpointKey(tableKey, v))].sort();
  const deleted: string[] = [];
  for (const key of older) {
    // An entry of unknown age, or written after the horizon (a store's clock), stays.
    const at = await modifiedAt(key);
    if (at !== undefined && at <= horizon) deleted.push(key);
  }
  if (!options.dryRun) {
    for (const key of deleted) {
      options.guard?.();
      await storage.delete(key);
    }
  }
  return { deleted, historyFrom: keepFrom };
}
