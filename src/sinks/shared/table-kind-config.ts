/**
 * `table: delta | hive` of the sinks that write a dataset: whether a Delta Lake log is kept beside
 * the hive files. Unset: Delta on object storage, hive on a local folder (defaultTableFor). Only the
 * Parquet sink can keep a log (Delta data files are Parquet); the Arrow and NDJSON sinks accept
 * `hive` and refuse `delta` at the key, so the message carries its file:line:column.
 */
import { existsSync } from 'node:fs';
import * as z from 'zod';
import { logPrefix } from '../../lake/delta/delta-paths.js';
import type { LintFinding } from '../../core/definition.js';
import { defaultTableFor, TABLE_KINDS, type TableKind } from '../../lake/delta/table-kind.js';
import type { LakeStorage } from '../../lake/storage/lake-storage.js';

export const tableKindSchema = z
  .enum(TABLE_KINDS)
  .optional()
  .describe('`delta`: also keep a Delta Lake transaction log per dataset (`<dataset>/_delta_log/`, instants stored as TIMESTAMP(MICROS, UTC)); `hive`: plain hive-partitioned files. Default: `delta` on object storage, `hive` in a local folder, and whatever the dataset already is (a dataset keeps its kind).');

/** The finding of a sink whose files cannot be a Delta table's. */
export function refuseDelta(config: { table?: TableKind | undefined }, sink: string): LintFinding[] {
  if (config.table !== 'delta') return [];
  return [{ path: ['table'], message: `the ${sink} sink cannot keep a Delta log (Delta data files are Parquet): use the parquet sink for table: delta, or table: hive` }];
}

/**
 * The table a sink writes: the pipeline's choice; else what the dataset already is (a table keeps
 * its kind, so a run need not repeat the flag): a local log folder (even an emptied one), else
 * `existing` as the runtime read it from the storage (the only way to know on an object store, and
 * for a table whose log is gone, from its manifest); else the storage's default.
 */
export function tableKindOf(config: { table?: TableKind | undefined }, storage: LakeStorage, dataset: string, existing?: TableKind): TableKind {
  if (config.table !== undefined) return config.table;
  const log = storage.localPath(logPrefix(dataset));
  if (log !== undefined && existsSync(log)) return 'delta';
  if (existing !== undefined) return existing;
  return defaultTableFor(storage);
}
