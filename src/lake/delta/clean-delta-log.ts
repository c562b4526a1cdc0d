/**
 * Log cleanup (PROTOCOL.md "Metadata Cleanup"): a table written every minute logs 1,440 versions a
 * day, and a log that is never cleaned slows every listing of it and keeps each version readable
 * for ever. The commits and checkpoints older than the log retention go, as Delta's own cleanup
 * does: only those before the newest checkpoint that is itself older than the retention, so the
 * table's state stays whole from that checkpoint on (its first version from then on), and every
 * version within the retention stays readable (time travel). Nothing else under `_delta_log/`
 * (`_last_checkpoint`, files of other writers) is touched.
 *
 * Safe at any moment against a crash or another writer: writers only add versions after the
 * newest, the checkpoint kept (and everything after it) is never deleted, entries go oldest first,
 * and the checkpoint kept is read whole first (one that cannot be read, or that `_last_checkpoint`
 * does not reach, keeps what it would have replaced).
 */
import { DeltaLogError } from '../../core/errors.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { modifiedAtOf } from '../storage/modified-at.js';
import { readCheckpointActions } from './delta-checkpoint-read.js';
import { checkpointKey, commitKey, logPrefix, parseLogListing } from './delta-paths.js';
import { lastCheckpointHint } from './last-checkpoint-hint.js';

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

/**
 * The newest of the checkpoints (ascending) written at or before the horizon, asking the age of a
 * few only: the newest, then 2, 4, 8... back, then a binary search between the last two probes
 * (a log grows in version and time together, so a steady table costs log2(checkpoints) questions,
 * not one per checkpoint; where ages are out of order, an older checkpoint is found, which keeps more).
 */
async function newestCheckpointAtOrBefore(checkpoints: readonly number[], oldEnough: (version: number) => Promise<boolean>): Promise<number | undefined> {
  const n = checkpoints.length;
  let found = -1;
  let tooYoung = n;
  for (let back = 1; ; back *= 2) {
    const i = Math.max(0, n - back);
    if (await oldEnough(checkpoints[i]!)) {
      found = i;
      break;
    }
    tooYoung = i;
    if (i === 0) return undefined;
  }
  let lo = found + 1;
  let hi = tooYoung - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (await oldEnough(checkpoints[mid]!)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return checkpoints[found];
}

export async function cleanDeltaLog(storage: LakeStorage, tableKey: string, options: LogCleanupOptions): Promise<LogCleanup> {
  const modifiedAt = options.modifiedAt ?? modifiedAtOf(storage);
  const horizon = options.now - options.logRetentionMs;
  const { commits, checkpoints } = parseLogListing(tableKey, await storage.list(logPrefix(tableKey)));
  if (checkpoints.length === 0) return { deleted: [] };
  const oldEnough = async (version: number) => {
    const at = await modifiedAt(checkpointKey(tableKey, version));
    return at !== undefined && at <= horizon;
  };
  // The newest checkpoint written before the horizon: the table is whole from it, whatever goes before.
  let keepFrom = await newestCheckpointAtOrBefore(checkpoints, oldEnough);
  if (keepFrom === undefined) return { deleted: [] };
  // A reader that trusts `_last_checkpoint` starts at the checkpoint it names: that one stays too.
  const hint = await lastCheckpointHint(storage, tableKey);
  if (hint !== undefined && hint < keepFrom && checkpoints.includes(hint)) keepFrom = hint;
  const older = [...commits.filter((v) => v < keepFrom).map((v) => commitKey(tableKey, v)), ...checkpoints.filter((v) => v < keepFrom).map((v) => checkpointKey(tableKey, v))].sort();
  const deleted: string[] = [];
  for (const key of older) {
    // An entry of unknown age, or written after the horizon (a store's clock), stays.
    const at = await modifiedAt(key);
    if (at !== undefined && at <= horizon) deleted.push(key);
  }
  if (deleted.length === 0) return { deleted, historyFrom: keepFrom };
  // The checkpoint becomes the table's only way to its first versions: it must read whole first.
  let kept;
  try {
    kept = await readCheckpointActions(storage, tableKey, keepFrom);
  } catch (cause) {
    throw new DeltaLogError(`checkpoint ${keepFrom} cannot be read, so the log entries before it are kept`, tableKey, { cause });
  }
  if (!kept.some((a) => 'protocol' in a) || !kept.some((a) => 'metaData' in a)) {
    throw new DeltaLogError(`checkpoint ${keepFrom} holds no protocol or metaData, so the log entries before it are kept`, tableKey);
  }
  if (!options.dryRun) {
    for (const key of deleted) {
      options.guard?.();
      await storage.delete(key);
    }
  }
  return { deleted, historyFrom: keepFrom };
}
