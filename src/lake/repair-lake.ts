/**
 * `quotelake repair` over a whole lake: the live files of each dataset that are missing or cannot
 * be decoded (a disk that lost them, a restore that cut them short) leave the manifest, and a
 * Delta table's log as removes, through the same journaled commit a run uses. Until then every
 * commit into their partitions stops at them. Their rows are gone from the lake: the report names
 * the series they held, for the runs that fetch them again. The caller holds the output.
 */
import { posix } from 'node:path';
import type { RunContext } from '../core/component.js';
import { DeltaConflictError, DeltaLogError, SinkError } from '../core/errors.js';
import { PartitionedSink } from './commit/partitioned-sink.js';
import { pendingJournals, type RollForwardHooks } from './commit/commit-journal.js';
import { NO_DRIFT } from './commit/delta-drift.js';
import { readManifest, type ManifestFile } from './commit/manifest.js';
import { lostDeltaLog } from './delta/table-kind.js';
import { liveFilesDecimal } from './live-files-decimal.js';
import { datasetSpec } from './datasets/index.js';
import { lakeTables } from './lake-tables.js';
import { partitionKeys } from './partition-path.js';
import { TABLE_DEFAULTS } from './table-defaults.js';
import type { LakeStorage } from './storage/lake-storage.js';
import { localStorage } from './storage/local-storage.js';
import { DEFAULT_DECIMAL } from '../core/decimal.js';

export interface RepairedFile {
  /** Relative to the output root, e.g. `kline/interval=1m/year=2026/date=2026-11-11/part-….parquet`. */
  readonly key: string;
  readonly problem: string;
  readonly rows: number;
  /** The series keys the file held (code, or exchange): the names of the streams to reset. */
  readonly series: readonly string[];
}

export interface TableRepair {
  readonly dataset: string;
  readonly format: string;
  readonly delta: boolean;
  /** Live files checked. */
  readonly files: number;
  readonly dropped: readonly RepairedFile[];
  /**
   * Where the Delta log and the manifest disagree on the live files (a commit stranded half-way):
   * the log is made to agree with the manifest. Rows only the log had were never committed for
   * quotelake, so no checkpoint holds them and the pipeline's next run fetches them anyway.
   */
  readonly logMismatches: readonly { readonly key: string; readonly problem: string }[];
  /**
   * A Delta table (its manifest records it) whose `_delta_log/` holds no version: the log is
   * written again from the manifest, one version adding its live files (each in `logMismatches`).
   */
  readonly logLost: boolean;
}

export interface RepairLakeOptions {
  readonly ctx: RunContext;
  readonly dataset?: string;
  readonly dryRun: boolean;
  readonly storage?: LakeStorage;
  /** Steps of the commit's roll-forward, for tests that stop it midway. */
  readonly hooks?: RollForwardHooks;
}

/**
 * The series a file held: the groups of its key ranges are the codes of K-lines, trades and books;
 * a halt file's groups are its announcements (symbol and halt start), and its series, the exchange
 * its stream is named by, is in its path (the hive key is in no file since layout 2).
 */
function seriesOf(dataset: string, file: ManifestFile): string[] {
  if (dataset !== 'halt') return Object.keys(file.ranges).sort();
  const exchange = partitionKeys(posix.dirname(file.path)).exchange;
  return exchange === undefined ? [] : [exchange];
}

function describe(dataset: string, { file, problem }: { file: ManifestFile; problem: string }): RepairedFile {
  return { key: `${dataset}/${file.path}`, problem, rows: file.rows, series: seriesOf(dataset, file) };
}

export async function repairLake(outputDir: string, options: RepairLakeOptions): Promise<TableRepair[]> {
  const storage = options.storage ?? localStorage(outputDir);
  const out: TableRepair[] = [];
  for await (const { dataset, format, delta, encoder } of lakeTables(storage, options.dataset)) {
    const manifest = await readManifest(storage, dataset, format);
    // A log written again declares the type of the files it names: their footers say it.
    const lost = delta && (await lostDeltaLog(storage, dataset, manifest));
    const sink = new PartitionedSink({
      outputDir,
      storage,
      spec: datasetSpec(dataset) as never,
      encoder,
      // No row is written, and a Delta log that has files to remove has its metaData already (it goes only into version 0).
      decimal: lost ? await liveFilesDecimal(storage, format, dataset, manifest!.files) : DEFAULT_DECIMAL,
      maxRowsPerFile: TABLE_DEFAULTS.maxRowsPerFile,
      maxBufferedRows: TABLE_DEFAULTS.maxBufferedRows,
      maxBufferedBytes: TABLE_DEFAULTS.maxBufferedBytes,
      retiredGraceMs: TABLE_DEFAULTS.retiredGraceMs,
      table: delta ? 'delta' : 'hive',
      ...(options.hooks !== undefined ? { hooks: options.hooks } : {}),
    });
    try {
      // An interrupted commit is finished first, so the files checked are the lake's own.
      if (!options.dryRun) await sink.recover(options.ctx, { purgeRetired: false, writesRows: false, mendsDeltaLog: true });
      // The log first: a file to drop must be live in it for its remove to be logged. A dry run
      // finishes no pending commit, whose table disagrees with its log until it is finished.
      const pending = options.dryRun && (await pendingJournals(storage, { dataset, format }, { readOnly: true })).length > 0;
      const drift = pending ? NO_DRIFT : await sink.deltaDrift();
      if (!options.dryRun) await sink.reconcileDeltaLog(options.ctx, drift);
      const logMismatches = [
        ...drift.unlisted.map((f) => ({ key: `${dataset}/${f.path}`, problem: f.present ? 'live in the Delta log, not in the manifest' : 'live in the Delta log, missing from storage' })),
        ...drift.unlogged.map((f) => ({ key: `${dataset}/${f.path}`, problem: drift.logLost === true ? 'in the manifest, not in the Delta log (it holds no version)' : 'in the manifest, removed from the Delta log' })),
      ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const { files, bad } = await sink.unreadableFiles();
      if (!options.dryRun) await sink.dropFiles(options.ctx, bad.map((b) => b.file));
      out.push({ dataset, format, delta, files, dropped: bad.map((b) => describe(dataset, b)), logMismatches, logLost: drift.logLost === true });
    } catch (error) {
      // As compact and a run's commit: a conflict or a log error keeps its own code (and exit, and fix).
      throw error instanceof SinkError || error instanceof DeltaConflictError || error instanceof DeltaLogError
        ? error
        : new SinkError(`${dataset}.${format}: repair failed: ${error instanceof Error ? error.message : String(error)}`, 'commit', error);
    } finally {
      await sink.close();
    }
  }
  return out;
}
