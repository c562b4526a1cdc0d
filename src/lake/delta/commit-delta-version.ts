/**
 * Commits one Delta version: `putIfAbsent` of `<table>/_delta_log/<version>.json`, the store's
 * conditional create (a hard link locally, `If-None-Match: *` on S3) being the only mutual
 * exclusion. A writer that loses reads the versions that won and checks them against its own
 * actions (optimistic concurrency, as Delta's writers do):
 * - appends of different files never conflict: retry at the next version;
 * - removing a file a winner already removed, a txn for an appId a winner also advanced, a
 *   winner's schema change, or a winner's protocol upgrade beyond writer 2 does: DeltaConflictError
 *   (re-plan from the new snapshot, don't retry).
 * Version 0 also carries `protocol` and `metaData`; losing the race to create the table is fine
 * when the winner created it with the same schema and partition columns.
 * Every `checkpointInterval` versions (the table's `delta.checkpointInterval`, read by the caller
 * from the snapshot it planned on) the new snapshot is checkpointed (best effort: the version
 * is committed whatever happens to its checkpoint), and then, as Delta's writers do, the log's
 * entries older than the table's log retention are cleaned (delta-log-retention.ts says when;
 * clean-delta-log.ts what goes).
 */
import { DeltaConflictError, deltaConflictHint, DeltaLogError } from '../../core/errors.js';
import { PACKAGE_VERSION } from '../package-version.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { actionLine, type AddAction, type CommitInfoAction, type DeltaAction, type MetaDataAction, type RemoveAction, type TxnAction } from './delta-actions.js';
import { DEFAULT_CHECKPOINT_INTERVAL } from './delta-checkpoint-interval.js';
import { writeDeltaCheckpoint, type CheckpointWritten } from './delta-checkpoint-write.js';
import { cleanDeltaLog, type LogCleanup } from './clean-delta-log.js';
import { logCleanupRule } from './delta-log-retention.js';
import { checkpointKey, commitKey, decodeDeltaPath } from './delta-paths.js';
import { readCommit, readDeltaSnapshot } from './delta-snapshot.js';
import { DELTA_PROTOCOL } from './delta-table-metadata.js';
import { sameSchema, unsupportedWriterProtocol } from './delta-writable.js';

export interface DeltaChanges {
  add?: readonly AddAction[];
  remove?: readonly RemoveAction[];
  txn?: readonly TxnAction[];
}

export interface CommitOptions {
  /** The version this commit means to be: the snapshot version it was planned on, plus one (0: a new table). */
  expectedVersion: number;
  /** 'WRITE' for new data, 'OPTIMIZE' for compaction (its adds and removes carry dataChange: false). */
  operation: CommitInfoAction['operation'];
  operationParameters?: Record<string, string>;
  /** Required when the table may not exist yet: the metaData of version 0. */
  metaData?: MetaDataAction;
  now: () => number;
  /** Attempts in all (first try included); default 10. */
  maxAttempts?: number;
  /** Checkpoint after every n-th version; default 10 (Delta's), 0 for never. */
  checkpointInterval?: number;
  /** Throws when the writer may no longer delete (its lease on the lake was lost): checked before each log entry the cleanup deletes. */
  guard?: () => void;
}

export interface CommitResult {
  version: number;
  attempts: number;
  checkpoint?: CheckpointWritten;
  /** The version is committed but its checkpoint failed (readers replay JSON instead). */
  checkpointError?: unknown;
  /** What the cleanup after the checkpoint deleted (absent: no checkpoint, or the table's configuration turns cleanup off). */
  logCleanup?: LogCleanup;
  /** The version and its checkpoint are in, but the cleanup stopped (the entries it left go at a later checkpoint). */
  logCleanupError?: unknown;
}

export const ENGINE_INFO = `quotelake/${PACKAGE_VERSION}`;

function commitText(tableKey: string, version: number, changes: DeltaChanges, options: CommitOptions, timestamp: number): string {
  const actions: DeltaAction[] = [
    { commitInfo: { timestamp, operation: options.operation, operationParameters: options.operationParameters ?? {}, engineInfo: ENGINE_INFO } },
  ];
  if (version === 0) {
    if (options.metaData === undefined) throw new DeltaLogError('creating the table (version 0) needs its metaData', tableKey);
    actions.push({ protocol: DELTA_PROTOCOL }, { metaData: options.metaData });
  }
  for (const txn of changes.txn ?? []) actions.push({ txn });
  for (const remove of changes.remove ?? []) actions.push({ remove });
  for (const add of changes.add ?? []) actions.push({ add });
  return actions.map(actionLine).join('\n') + '\n';
}

/** Why the actions of a winning version forbid ours, or undefined when we can go after it. */
function conflictWith(tableKey: string, winner: DeltaAction[], changes: DeltaChanges, metaData: MetaDataAction | undefined): string[] | undefined {
  const ourRemoves = new Set((changes.remove ?? []).map((r) => decodeDeltaPath(tableKey, r.path)));
  const ourApps = new Set((changes.txn ?? []).map((t) => t.appId));
  const clashes: string[] = [];
  for (const action of winner) {
    if ('remove' in action) {
      const path = decodeDeltaPath(tableKey, action.remove.path);
      if (ourRemoves.has(path)) clashes.push(path);
    } else if ('txn' in action && ourApps.has(action.txn.appId)) {
      clashes.push(`txn ${action.txn.appId}`);
    } else if ('metaData' in action) {
      const same =
        metaData !== undefined &&
        sameSchema(action.metaData.schemaString, metaData.schemaString) &&
        JSON.stringify(action.metaData.partitionColumns) === JSON.stringify(metaData.partitionColumns);
      // A table created by the winner with our schema is the table we meant to create.
      if (!same) clashes.push('metaData (the schema changed)');
    }
  }
  return clashes.length > 0 ? clashes : undefined;
}

export async function commitDeltaVersion(storage: LakeStorage, tableKey: string, changes: DeltaChanges, options: CommitOptions): Promise<CommitResult> {
  const maxAttempts = options.maxAttempts ?? 10;
  let version = options.expectedVersion;
  // A version after a missing one would leave a hole no reader can replay across. A checkpoint of
  // the version before is enough: readers start from it (its JSON commit may be gone, and repair
  // writes the version that makes such a log agree with the manifest again).
  if (version > 0 && !(await storage.exists(commitKey(tableKey, version - 1))) && !(await storage.exists(checkpointKey(tableKey, version - 1)))) {
    throw new DeltaLogError(`cannot commit version ${version}: version ${version - 1} does not exist`, tableKey);
  }
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const text = commitText(tableKey, version, changes, options, options.now());
    if (await storage.putIfAbsent(commitKey(tableKey, version), text)) {
      return { version, attempts: attempt, ...(await maybeCheckpoint(storage, tableKey, version, options)) };
    }
    // Lost: read every version that won since, then go after the newest.
    for (;;) {
      const winner = await readCommit(storage, tableKey, version);
      if (winner === undefined) break;
      for (const action of winner) {
        const unsupported = 'protocol' in action ? unsupportedWriterProtocol(action.protocol) : undefined;
        if (unsupported !== undefined) throw new DeltaConflictError(tableKey, version, ['protocol'], unsupported, storage.root, storage.endpoint);
      }
      const clashes = conflictWith(tableKey, winner, changes, options.metaData);
      if (clashes !== undefined) throw new DeltaConflictError(tableKey, version, clashes, undefined, storage.root, storage.endpoint);
      version++;
    }
  }
  throw new DeltaLogError(`lost the race for a Delta version ${maxAttempts} times in a row (last tried ${version})`, tableKey, { retryable: true, hint: deltaConflictHint(storage.root, storage.endpoint) });
}

async function maybeCheckpoint(
  storage: LakeStorage,
  tableKey: string,
  version: number,
  options: CommitOptions,
): Promise<Pick<CommitResult, 'checkpoint' | 'checkpointError' | 'logCleanup' | 'logCleanupError'>> {
  const every = options.checkpointInterval ?? DEFAULT_CHECKPOINT_INTERVAL;
  if (every <= 0 || version === 0 || version % every !== 0) return {};
  let snapshot;
  let checkpoint: CheckpointWritten;
  try {
    snapshot = await readDeltaSnapshot(storage, tableKey, version);
    if (snapshot === undefined) return {};
    checkpoint = await writeDeltaCheckpoint(storage, snapshot, { now: options.now() });
  } catch (checkpointError) {
    return { checkpointError };
  }
  // Only after a checkpoint is whole, and by the table's own rule (its configuration at this version).
  const rule = logCleanupRule(snapshot.metaData.configuration);
  if (!rule.clean) return { checkpoint };
  try {
    const guard = options.guard === undefined ? {} : { guard: options.guard };
    return { checkpoint, logCleanup: await cleanDeltaLog(storage, tableKey, { logRetentionMs: rule.retentionMs, now: options.now(), ...guard }) };
  } catch (logCleanupError) {
    return { checkpoint, logCleanupError };
  }
}
