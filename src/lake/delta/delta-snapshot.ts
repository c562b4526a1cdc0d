/**
 * A table's state at its newest version (or an older one), by log replay (PROTOCOL.md "Action
 * Reconciliation"): start from the newest classic checkpoint at or before the target (the log
 * listed from the one `_last_checkpoint` names), then apply the JSON commits after it in order.
 * The newest protocol and metaData win, a txn is the latest per appId, and a file is live when its
 * newest action (by path) is an `add`; removed files stay as tombstones, for vacuum.
 */
import { DeltaLogError } from '../../core/errors.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import type { AddAction, DeltaAction, MetaDataAction, ProtocolAction, RemoveAction, TxnAction } from './delta-actions.js';
import { readCheckpointActions } from './delta-checkpoint-read.js';
import { commitKey, decodeDeltaPath, logPrefix, parseLogListing, versionName, type LogListing } from './delta-paths.js';
import { lastCheckpointHint } from './last-checkpoint-hint.js';

export interface DeltaSnapshot {
  tableKey: string;
  version: number;
  protocol: ProtocolAction;
  metaData: MetaDataAction;
  /** Live files by decoded path (relative to the table root). */
  files: Map<string, AddAction>;
  /** Removed files not re-added, by decoded path. */
  tombstones: Map<string, RemoveAction>;
  txns: Map<string, TxnAction>;
  /** The checkpoint the replay started from, if any. */
  fromCheckpoint?: number;
}

/** The actions of one JSON commit (blank lines tolerated; unknown actions skipped, as the protocol asks). */
export function parseCommit(tableKey: string, version: number, text: string): DeltaAction[] {
  const actions: DeltaAction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      actions.push(JSON.parse(line) as DeltaAction);
    } catch (cause) {
      throw new DeltaLogError(`version ${version} (${commitKey(tableKey, version)}), line ${i + 1}: not JSON`, tableKey, { cause });
    }
  }
  return actions;
}

export async function readCommit(storage: LakeStorage, tableKey: string, version: number): Promise<DeltaAction[] | undefined> {
  const bytes = await storage.read(commitKey(tableKey, version));
  return bytes === undefined ? undefined : parseCommit(tableKey, version, Buffer.from(bytes).toString('utf8'));
}

interface ReplayState {
  protocol?: ProtocolAction;
  metaData?: MetaDataAction;
  files: Map<string, AddAction>;
  tombstones: Map<string, RemoveAction>;
  txns: Map<string, TxnAction>;
}

function apply(tableKey: string, state: ReplayState, action: DeltaAction): void {
  if ('add' in action) {
    const path = decodeDeltaPath(tableKey, action.add.path);
    state.files.set(path, action.add);
    state.tombstones.delete(path);
  } else if ('remove' in action) {
    const path = decodeDeltaPath(tableKey, action.remove.path);
    state.files.delete(path);
    state.tombstones.set(path, action.remove);
  } else if ('metaData' in action) state.metaData = action.metaData;
  else if ('protocol' in action) state.protocol = action.protocol;
  else if ('txn' in action) state.txns.set(action.txn.appId, action.txn);
}

/**
 * The log's entries a snapshot needs: from the checkpoint `_last_checkpoint` names on (listed
 * after it, as Delta readers list, so a long log costs no more than its tail), or all of them when
 * the hint is missing, names no checkpoint, or is newer than the version asked for.
 */
async function logListing(storage: LakeStorage, tableKey: string, atVersion: number | undefined): Promise<LogListing> {
  const hint = await lastCheckpointHint(storage, tableKey);
  if (hint !== undefined && (atVersion === undefined || hint <= atVersion)) {
    const tail = parseLogListing(tableKey, await storage.list(logPrefix(tableKey), { startAfter: `${logPrefix(tableKey)}${versionName(hint)}` }));
    if (tail.checkpoints.includes(hint)) return { commits: tail.commits.filter((v) => v >= hint), checkpoints: tail.checkpoints.filter((v) => v >= hint) };
  }
  return parseLogListing(tableKey, await storage.list(logPrefix(tableKey)));
}

/** The newest version a listing names; -1 for none. */
function newestOf(listing: LogListing): number {
  return Math.max(-1, ...listing.commits, ...listing.checkpoints);
}

/** The checkpoint a replay to `target` starts from: the newest at or before it (a tail listing holds the hint's and any newer). */
function startOf(listing: LogListing, target: number): number | undefined {
  return listing.checkpoints.filter((v) => v <= target).at(-1);
}

/**
 * The snapshot at `atVersion` (default the newest), or undefined when the table has no log.
 * A log cleanup (clean-delta-log.ts) may delete the entries a replay listed while it reads them,
 * but only once a newer checkpoint covers them: a replay that fails is listed again, and tried
 * again from that newer checkpoint; with no newer one the failure is the log's own.
 */
export async function readDeltaSnapshot(storage: LakeStorage, tableKey: string, atVersion?: number): Promise<DeltaSnapshot | undefined> {
  let listing = await logListing(storage, tableKey, atVersion);
  for (;;) {
    try {
      return await replay(storage, tableKey, listing, atVersion);
    } catch (error) {
      const again = await logListing(storage, tableKey, atVersion);
      const [was, now] = [startOf(listing, atVersion ?? newestOf(listing)), startOf(again, atVersion ?? newestOf(again))];
      if (now === undefined || (was !== undefined && now <= was)) throw error;
      listing = again;
    }
  }
}

async function replay(storage: LakeStorage, tableKey: string, listing: LogListing, atVersion: number | undefined): Promise<DeltaSnapshot | undefined> {
  const newest = newestOf(listing);
  if (newest < 0) return undefined;
  const target = atVersion ?? newest;
  if (target > newest) throw new DeltaLogError(`version ${target} does not exist (newest ${newest})`, tableKey);

  const start = startOf(listing, target);

  const state: ReplayState = { files: new Map(), tombstones: new Map(), txns: new Map() };
  if (start !== undefined) {
    for (const action of await readCheckpointActions(storage, tableKey, start)) apply(tableKey, state, action);
  }
  for (let v = (start ?? -1) + 1; v <= target; v++) {
    const actions = await readCommit(storage, tableKey, v);
    if (actions === undefined) throw new DeltaLogError(`version ${v} is missing from the log (replaying to ${target})`, tableKey);
    for (const action of actions) apply(tableKey, state, action);
  }
  if (state.protocol === undefined || state.metaData === undefined) {
    throw new DeltaLogError(`no protocol or metaData by version ${target}`, tableKey);
  }
  const p = state.protocol as ProtocolAction & { readerFeatures?: unknown };
  if (p.minReaderVersion > 1 || p.readerFeatures !== undefined) {
    throw new DeltaLogError(`the table needs Delta reader version ${p.minReaderVersion}; quotelake reads version 1 tables only`, tableKey);
  }
  return {
    tableKey,
    version: target,
    protocol: state.protocol,
    metaData: state.metaData,
    files: state.files,
    tombstones: state.tombstones,
    txns: state.txns,
    ...(start !== undefined ? { fromCheckpoint: start } : {}),
  };
}
