/**
 * `quotelake compact` over a whole lake: every dataset with a manifest (or one) is brought within
 * the commit's file bound (compaction-plan.ts) and its expired retired files are deleted, through
 * the same PartitionedSink code a run's commit uses, so both follow one rule and one protocol.
 * The caller holds the output (its lock); a dry run reads only.
 */
import type { RunContext } from '../core/component.js';
import type { DecimalType } from '../core/decimal.js';
import { liveFilesDecimal } from './live-files-decimal.js';
import { DeltaConflictError, DeltaLogError, SinkError } from '../core/errors.js';
import { PartitionedSink, type CompactionReport } from './commit/partitioned-sink.js';
import { readManifest, type TableFormat } from './commit/manifest.js';
import { datasetSpec } from './datasets/index.js';
import { lakeTables } from './lake-tables.js';
import { TABLE_DEFAULTS } from './table-defaults.js';
import type { LakeStorage } from './storage/lake-storage.js';
import { localStorage } from './storage/local-storage.js';
import { readDeltaSnapshot } from './delta/delta-snapshot.js';
import { tableDecimal } from './delta/delta-writable.js';

export interface CompactLakeOptions {
  readonly ctx: RunContext;
  /** Only this dataset (every format of it, unless `format` names one). */
  readonly dataset?: string;
  /** Only the tables of this format (a pipeline's sink writes one). */
  readonly format?: TableFormat;
  readonly dryRun: boolean;
  readonly retiredGraceMs: number;
  readonly maxRowsPerFile?: number;
  readonly maxBufferedRows?: number;
  readonly maxBufferedBytes?: number;
  readonly storage?: LakeStorage;
}

/** The DECIMAL(p,s) a Delta table's log declares. */
async function loggedDecimal(storage: LakeStorage, dataset: string): Promise<DecimalType | undefined> {
  const snapshot = await readDeltaSnapshot(storage, dataset);
  return snapshot === undefined ? undefined : tableDecimal(snapshot.metaData);
}

export async function compactLake(outputDir: string, options: CompactLakeOptions): Promise<CompactionReport[]> {
  const storage = options.storage ?? localStorage(outputDir);
  const reports: CompactionReport[] = [];
  // A Delta table's compaction is logged too (OPTIMIZE, dataChange false), in its file format.
  for await (const { dataset, format, delta, encoder } of lakeTables(storage, options.dataset, options.format)) {
    // Stopped (SIGTERM): the datasets compacted so far are committed; the rest wait for the next compact.
    if (options.ctx.signal.aborted) break;
    const manifest = await readManifest(storage, dataset, format);
    const sink = new PartitionedSink({
      outputDir,
      storage,
      spec: datasetSpec(dataset) as never,
      encoder,
      // A Delta table's files must have the types its log declares; a hive dataset's, one every live file fits.
      decimal: (delta ? await loggedDecimal(storage, dataset) : undefined) ?? (await liveFilesDecimal(storage, format, dataset, manifest?.files ?? [])),
      maxRowsPerFile: options.maxRowsPerFile ?? TABLE_DEFAULTS.maxRowsPerFile,
      maxBufferedRows: options.maxBufferedRows ?? TABLE_DEFAULTS.maxBufferedRows,
      maxBufferedBytes: options.maxBufferedBytes ?? TABLE_DEFAULTS.maxBufferedBytes,
      retiredGraceMs: options.retiredGraceMs,
      table: delta ? 'delta' : 'hive',
    });
    try {
      // Its recoveries are logged; expired retired files are left to compactAll, which reports them.
      if (!options.dryRun) await sink.recover(options.ctx, { purgeRetired: false });
      reports.push(await sink.compactAll(options.ctx, { dryRun: options.dryRun }));
    } catch (error) {
      // As a run's commit: a conflict or a log error keeps its own code (and exit); anything else says what failed.
      throw error instanceof SinkError || error instanceof DeltaConflictError || error instanceof DeltaLogError
        ? error
        : new SinkError(`${dataset}.${format}: compaction failed: ${error instanceof Error ? error.message : String(error)}`, 'commit', error);
    } finally {
      await sink.close();
    }
  }
  return reports;
}
