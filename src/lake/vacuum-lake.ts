/**
 * `quotelake vacuum` over a whole lake: every dataset that is a Delta table has the files its
 * newest snapshot no longer references, and that are older than the retention, deleted
 * (delta/vacuum-delta.ts says which are kept). Plain hive datasets are left alone: their replaced
 * files are the commit's own business (retired, then deleted after `retiredGraceMs`). With a log
 * retention, each table's log then loses the entries older than it (delta/clean-delta-log.ts);
 * with `'table'`, older than the table's own `delta.logRetentionDuration`, unless the table turns
 * its cleanup off (delta/delta-log-retention.ts).
 * A table whose log was lost refuses the whole vacuum before any delete (table-kind.ts lostDeltaLog).
 * The caller holds the output (its lock) unless it is a dry run.
 */
import { DATASETS } from '../core/records.js';
import { hasDeltaLog, lostDeltaLog } from './delta/table-kind.js';
import { lostDeltaLogError } from './delta/lost-log-error.js';
import { readManifest } from './commit/manifest.js';
import { vacuumDelta, type VacuumResult } from './delta/vacuum-delta.js';
import { cleanDeltaLog, type LogCleanup } from './delta/clean-delta-log.js';
import { logCleanupRule } from './delta/delta-log-retention.js';
import { readDeltaSnapshot } from './delta/delta-snapshot.js';
import type { LakeStorage } from './storage/lake-storage.js';
import { pendingJournals } from './commit/commit-journal.js';
import { deltaDrift } from './commit/delta-drift.js';

export interface VacuumLakeOptions {
  readonly retentionMs: number;
  /** The log's entries older than this go too (clean-delta-log.ts), or older than each table's own rule ('table'); default: the log is left whole. */
  readonly logRetentionMs?: number | 'table';
  readonly now: number;
  readonly dryRun: boolean;
  /** Only this dataset. */
  readonly dataset?: string | undefined;
  /** The lease check before each delete (vacuum-delta.ts). */
  readonly guard?: () => void;
}

export interface TableVacuum extends VacuumResult {
  readonly dataset: string;
  /** Why the table was left alone (a killed run's commit is pending: its files are in no log yet). */
  readonly skipped?: string;
  /** What the log cleanup deleted, when a log retention was given. */
  readonly log?: LogCleanup;
  /** Why the log was kept whole by the table's own rule (its delta.enableExpiredLogCleanup, an unreadable retention). */
  readonly logKept?: string;
}

export async function vacuumLake(storage: LakeStorage, options: VacuumLakeOptions): Promise<TableVacuum[]> {
  await refuseLostLogs(storage, options.dataset);
  const out: TableVacuum[] = [];
  for (const dataset of DATASETS) {
    if (options.dataset !== undefined && dataset !== options.dataset) continue;
    if (!(await hasDeltaLog(storage, dataset))) continue;
    // A decided commit not yet logged names files vacuum would take for orphans: the next run or
    // `quotelake compact` finishes it first.
    if ((await pendingJournals(storage, { dataset, format: 'parquet' })).length > 0) {
      out.push({ dataset, deleted: [], kept: [], skipped: 'an interrupted commit is pending (the next run or `quotelake compact` finishes it)' });
      continue;
    }
    // A file the manifest lists that the log removed would go, and every commit stop at it.
    const drift = await deltaDrift(storage, dataset, 'parquet');
    if (drift.unlisted.length + drift.unlogged.length > 0) {
      out.push({ dataset, deleted: [], kept: [], skipped: 'its Delta log and its manifest disagree (`quotelake repair --dry-run` shows where; --yes mends the log)' });
      continue;
    }
    const guard = options.guard ? { guard: options.guard } : {};
    // Read once: the vacuum's references and the table's own log rule come from the same snapshot.
    const snapshot = await readDeltaSnapshot(storage, dataset);
    const result = await vacuumDelta(storage, dataset, { retentionMs: options.retentionMs, now: options.now, dryRun: options.dryRun, ...guard, ...(snapshot ? { snapshot } : {}) });
    let logRetentionMs = options.logRetentionMs;
    if (logRetentionMs === 'table') {
      const rule = logCleanupRule(snapshot?.metaData.configuration ?? {});
      if (!rule.clean) {
        out.push({ dataset, ...result, logKept: rule.why });
        continue;
      }
      logRetentionMs = rule.retentionMs;
    }
    const log = logRetentionMs === undefined ? undefined : await cleanDeltaLog(storage, dataset, { logRetentionMs, now: options.now, dryRun: options.dryRun, ...guard });
    out.push({ dataset, ...result, ...(log ? { log } : {}) });
  }
  return out;
}

/**
 * A table whose log holds no version has no log to find it by, and none to say which of its files
 * are live: it is no "nothing to vacuum" but damage, refused as a commit refuses it (exit 1), with
 * the repair that writes the log again. Before any table is vacuumed, so the refusal deletes nothing.
 */
async function refuseLostLogs(storage: LakeStorage, only: string | undefined): Promise<void> {
  for (const dataset of DATASETS) {
    if (only !== undefined && dataset !== only) continue;
    const manifest = await readManifest(storage, dataset, 'parquet');
    if (await lostDeltaLog(storage, dataset, manifest)) {
      throw lostDeltaLogError(storage, dataset, manifest!.files.length, 'a vacuum cannot tell its live files from orphans: nothing was deleted', 'vacuum again');
    }
  }
}

/** A Delta table's own log retention: what `'table'` cleans it by (none for a table that keeps its log). */
export interface TableLogRetention {
  readonly dataset: string;
  readonly retentionMs: number;
}

/** The log retention of each Delta table (or `dataset`) whose own rule cleans its log. */
export async function tableLogRetentions(storage: LakeStorage, dataset?: string): Promise<TableLogRetention[]> {
  const out: TableLogRetention[] = [];
  for (const name of DATASETS) {
    if (dataset !== undefined && name !== dataset) continue;
    if (!(await hasDeltaLog(storage, name))) continue;
    const snapshot = await readDeltaSnapshot(storage, name);
    const rule = logCleanupRule(snapshot?.metaData.configuration ?? {});
    if (rule.clean) out.push({ dataset: name, retentionMs: rule.retentionMs });
  }
  return out;
}
