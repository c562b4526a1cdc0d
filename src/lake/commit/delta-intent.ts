/**
 * The Delta half of a commit journal: the actions one partitioned-sink commit means to log, planned
 * with the journal and applied by its roll-forward (commit-journal.ts), so a crashed commit is
 * finished from the journal alone, with the same file stats, ids and times.
 *
 * Order of a commit with a log (each step idempotent, a crash anywhere is rolled forward):
 *   journal written → staged files renamed to their final keys → Delta version committed (the
 *   commit point for Delta readers) → manifest published (the commit point for quotelake) →
 *   journal deleted.
 * A journal whose version is already in the log (one of its adds is live or a tombstone there: our
 * file names are unique per run and sequence) is not committed again, so resume adds nothing
 * twice. Series watermarks travel as `txn` (delta-txn.ts) and only ever move forward: a txn is
 * written where the commit takes a series past what the log already holds.
 */
import { posix } from 'node:path';
import type { DecimalType } from '../../core/decimal.js';
import { DeltaConflictError } from '../../core/errors.js';
import type { Dataset } from '../../core/records.js';
import type { AddAction, MetaDataAction, RemoveAction, TxnAction } from '../delta/delta-actions.js';
import { commitDeltaVersion, type CommitResult } from '../delta/commit-delta-version.js';
import { checkpointIntervalOf } from '../delta/delta-checkpoint-interval.js';
import { addAction, partitionValuesOf } from '../delta/delta-file-actions.js';
import { decodeDeltaPath, encodeDeltaPath } from '../delta/delta-paths.js';
import { readDeltaSnapshot } from '../delta/delta-snapshot.js';
import { datasetMetaData } from '../delta/delta-table-metadata.js';
import { watermarkAppId } from '../delta/delta-txn.js';
import { unsupportedWriterProtocol } from '../delta/delta-writable.js';
import { parseSeries, SERIES_KEY } from '../series-stats.js';
import type { LakeStorage } from '../storage/lake-storage.js';

export interface DeltaIntent {
  /** The table's key: the dataset folder. */
  readonly tableKey: string;
  /**
   * 'WRITE': a run's commit (new rows, merges); 'OPTIMIZE': `quotelake compact` (dataChange false);
   * 'FSCK': `quotelake repair` setting the live files to the manifest's (its adds are files the log
   * may have removed before, so it is applied as a state to reach, not as new files to append).
   */
  readonly operation: 'WRITE' | 'OPTIMIZE' | 'FSCK';
  readonly add: readonly AddAction[];
  readonly remove: readonly RemoveAction[];
  /** appId → the series' newest committed time (epoch ms) after this commit. */
  readonly watermarks: Readonly<Record<string, number>>;
  /** Version 0 of a table that does not exist yet. */
  readonly metaData: MetaDataAction;
  /** When the commit was planned (epoch ms): commitInfo, modification and deletion times. */
  readonly timestamp: number;
}

export interface IntentFile {
  /** Relative to the output root, e.g. `kline/interval=1m/.../part-r1-00001.parquet`. */
  readonly finalPath: string;
  readonly bytes: number;
  readonly metadata: ReadonlyMap<string, string>;
}

export interface PlanDeltaOptions {
  readonly dataset: Dataset;
  readonly operation: DeltaIntent['operation'];
  readonly added: readonly IntentFile[];
  /** Live files this commit replaces: paths relative to the dataset folder, with their sizes. */
  readonly replaced: readonly { readonly path: string; readonly bytes: number }[];
  readonly pipeline: string;
  readonly decimal: DecimalType;
  readonly now: number;
}

export function planDeltaIntent(o: PlanDeltaOptions): DeltaIntent | undefined {
  if (o.added.length === 0 && o.replaced.length === 0) return undefined;
  // Compaction rearranges rows it already holds: no data change for streaming readers.
  const dataChange = o.operation !== 'OPTIMIZE';
  const watermarks: Record<string, number> = {};
  const add = o.added.map((f) => {
    const series = parseSeries(f.metadata.get(SERIES_KEY));
    const relativeKey = posix.relative(o.dataset, f.finalPath);
    // A kline file's series key is the code; its interval is in the path: one watermark per
    // code and interval (`BTCUSDT/1m`, as the run's streams name them), not one for all intervals.
    const interval = o.dataset === 'kline' ? partitionValuesOf('kline', relativeKey).interval : undefined;
    if (dataChange) {
      for (const [key, s] of series ?? []) {
        if (s.last === null) continue;
        const appId = watermarkAppId(o.pipeline, interval ? `${key}/${interval}` : key);
        watermarks[appId] = Math.max(watermarks[appId] ?? -Infinity, s.last);
      }
    }
    return addAction(o.dataset, { relativeKey, size: f.bytes, modificationTime: o.now, ...(series !== undefined ? { series } : {}) }, dataChange);
  });
  const remove: RemoveAction[] = o.replaced.map((f) => ({
    path: encodeDeltaPath(f.path),
    deletionTimestamp: o.now,
    dataChange,
    extendedFileMetadata: true,
    partitionValues: partitionValuesOf(o.dataset, f.path),
    size: f.bytes,
  }));
  return {
    tableKey: o.dataset,
    operation: o.operation,
    add,
    remove,
    watermarks,
    metaData: datasetMetaData(o.dataset, { decimal: o.decimal, createdTime: o.now }),
    timestamp: o.now,
  };
}

/** The table's own checkpoint interval: its configuration as the log holds it, or as version 0 will. */
function tableCheckpointInterval(snapshot: Awaited<ReturnType<typeof readDeltaSnapshot>>, intent: DeltaIntent): number {
  return checkpointIntervalOf(snapshot?.metaData.configuration ?? intent.metaData?.configuration);
}

/**
 * Commit the intent's version unless the log already holds it; undefined when it did. `guard`
 * (the lease check) stops the log cleanup that may follow its checkpoint.
 */
export async function applyDeltaIntent(storage: LakeStorage, intent: DeltaIntent, guard?: () => void): Promise<CommitResult | undefined> {
  const snapshot = await readDeltaSnapshot(storage, intent.tableKey);
  // Another engine may have upgraded the table since the sink looked: never write under its
  // protocol. A conflict, so the commit is undone (its files are named by no log nor manifest).
  const unsupported = snapshot === undefined ? undefined : unsupportedWriterProtocol(snapshot.protocol);
  if (unsupported !== undefined) throw new DeltaConflictError(intent.tableKey, snapshot!.version, ['protocol'], unsupported, storage.root, storage.endpoint);
  const guarded = guard === undefined ? {} : { guard };
  if (intent.operation === 'FSCK') return reachLiveFiles(storage, intent, snapshot, guarded);
  if (snapshot !== undefined) {
    const named = (path: string) => {
      const key = decodeDeltaPath(intent.tableKey, path);
      return snapshot.files.has(key) || snapshot.tombstones.has(key);
    };
    if (intent.add.some((a) => named(a.path))) return undefined;
    // Removes alone (`quotelake repair`): applied already when every one is a tombstone.
    if (intent.add.length === 0 && intent.remove.length > 0 && intent.remove.every((r) => snapshot.tombstones.has(decodeDeltaPath(intent.tableKey, r.path)))) return undefined;
  }
  // The files it replaces were planned from the manifest: one another writer removed since is gone.
  const gone = intent.remove.map((r) => decodeDeltaPath(intent.tableKey, r.path)).filter((path) => !snapshot?.files.has(path));
  if (gone.length > 0) throw new DeltaConflictError(intent.tableKey, snapshot?.version ?? 0, gone, undefined, storage.root, storage.endpoint);
  const txn: TxnAction[] = [];
  for (const [appId, ms] of Object.entries(intent.watermarks).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const held = snapshot?.txns.get(appId)?.version;
    if (held === undefined || ms > held) txn.push({ appId, version: ms, lastUpdated: intent.timestamp });
  }
  return commitDeltaVersion(
    storage,
    intent.tableKey,
    { add: intent.add, remove: intent.remove, txn },
    {
      expectedVersion: (snapshot?.version ?? -1) + 1,
      operation: intent.operation,
      operationParameters: intent.operation === 'WRITE' ? { mode: 'Append' } : {},
      metaData: intent.metaData,
      now: () => intent.timestamp,
      checkpointInterval: tableCheckpointInterval(snapshot, intent),
      ...guarded,
    },
  );
}

/**
 * A repair's version: only what the log still lacks (a remove of a file still live, an add of one
 * not live), so a repair rolled forward twice, or after its version landed, logs nothing more.
 */
async function reachLiveFiles(
  storage: LakeStorage,
  intent: DeltaIntent,
  snapshot: Awaited<ReturnType<typeof readDeltaSnapshot>>,
  guarded: { guard?: () => void },
): Promise<CommitResult | undefined> {
  const live = (path: string) => snapshot?.files.has(decodeDeltaPath(intent.tableKey, path)) === true;
  const add = intent.add.filter((a) => !live(a.path));
  const remove = intent.remove.filter((r) => live(r.path));
  if (add.length === 0 && remove.length === 0) return undefined;
  return commitDeltaVersion(storage, intent.tableKey, { add, remove, txn: [] }, {
    expectedVersion: (snapshot?.version ?? -1) + 1,
    operation: 'FSCK',
    metaData: intent.metaData,
    now: () => intent.timestamp,
    checkpointInterval: tableCheckpointInterval(snapshot, intent),
    ...guarded,
  });
}
