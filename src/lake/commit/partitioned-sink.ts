/**
 * The partition writer shared by the Parquet and Arrow sinks (the encoder is the only difference).
 *
 * - write: rows are buffered per hive partition; a partition is flushed to a staged file when it
 *   reaches maxRowsPerFile, and the largest partition whenever the buffers pass maxBufferedRows or
 *   maxBufferedBytes, so memory stays bounded whatever the input size.
 * - staging: `<output>/_quotelake/staging/<runId>/<dataset>-<format>/<partition>/part-<runId>-<seq><ext>`,
 *   same filesystem as the output, so the commit is a rename. A flushed partition's columns are
 *   handed to the writer (staged-file-writer.ts: this thread, or a worker pool that encodes while
 *   this thread goes on parsing); the writer bounds the files in flight, so write() waits when it
 *   is full. flush(), commit() and abort() wait for every file in flight: the journal never lists
 *   a staged file before it is durable, and abort() removes staging only once nothing writes to it.
 * - commit: for each touched partition, if a new file's key ranges overlap a live file (or another
 *   new one), those files are merged by primary key (newer wins; a final bar beats a forming one)
 *   into new files. Then the partition is compacted to its file bound (compaction-plan.ts): small
 *   files of earlier commits and runs are rewritten with the new ones, batch by batch, with no row
 *   objects. The intent {add, retire, manifest} is written as a journal first and then rolled
 *   forward (commit-journal.ts): replaced files are retired, not deleted, and deleted by a later
 *   commit once `retiredGraceMs` has passed, so readers of an older manifest can finish.
 * - storage: everything but the staged files' bytes goes through a LakeStorage (local folder by
 *   default); the writer (possibly a worker thread) writes staged files at the storage's local path,
 *   or, on a remote backend, in a local scratch folder from which they are uploaded to their staging
 *   keys (local-scratch.ts); spills stay in that scratch folder.
 * - recover: rolls forward any journal a crashed run left, deletes stale staging, any part file
 *   the manifest lists neither as live nor as retired, and retired files past the grace. It must
 *   run while this process holds the output (the runtime's lock).
 * - table: 'delta' adds a Delta Lake log to the dataset folder: every commit also logs one version
 *   (its adds, removes and series watermarks) between the renames and the manifest (delta-intent.ts).
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { stat } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { LocalScratch, removeStaleScratch } from './local-scratch.js';
import { SpillReader, writeSpill } from './spill-io.js';
import { makeDir } from '../../core/make-dir.js';
import { makeData, RecordBatch, Struct, Table, type Data, type Schema } from 'apache-arrow';
import type { Batch, CommitReceipt, CommittedFile, Rejected, RunContext, Sink } from '../../core/component.js';
import type { DecimalType } from '../../core/decimal.js';
import { SinkError } from '../../core/errors.js';
import { klineLaneAt, type KlineLane } from '../../core/kline-lane.js';
import { laneOf } from '../../core/lazy-rows.js';
import { MAX_FOLDED_INT_DIGITS, SCANNED_SCALE } from '../../core/scanned-bar.js';
import { minorCollection } from '../encode/minor-collection.js';
import type { Dataset } from '../../core/records.js';
import { datasetSchema, SCHEMA_VERSION } from '../../core/schemas.js';
import { isTempFile } from '../../core/atomic-write.js';
import { groupBy } from '../../core/group-by.js';
import type { DecimalCheck } from '../columns/decimal-misfit.js';
import { mergeFileMetadata, sameColumnTypes, SOURCE_ENDPOINT } from './file-compaction.js';
import { filesAfter, planCompaction } from './compaction-plan.js';
import { tableKeys } from './table-ranges.js';
import { dedupedOrder, keyColumns, picksOf, rangesAndSeries } from './columnar-keys.js';
import { takeable, takeRows, type RowPicks } from '../columns/take-rows.js';
import { rowStretches } from '../columns/row-stretches.js';
import { fileProvenance } from '../file-provenance.js';
import { formatSeries, SERIES_KEY, seriesOfRows, type SeriesMap } from '../series-stats.js';
import { PartitionBuffer } from './partition-buffer.js';
import { heldDecimalMisfit } from './held-decimal-misfit.js';
import type { ColumnBuilder } from '../columns/column-builder.js';
import { overlaps, widenRange, type KeyRanges } from './key-ranges.js';
import type { TimeRuns } from './time-runs.js';
import { MANIFESTS_DIR, STAGING_DIR } from '../lake-paths.js';
import { TABLE_DEFAULTS } from '../table-defaults.js';
import { pendingJournals, rollForward, writeJournal, type CommitJournal, type RollForwardHooks } from './commit-journal.js';
import { compareOrder, type DatasetSpec, type Order } from '../datasets/dataset-spec.js';
import { MANIFEST_VERSION, readManifest, type Manifest, type ManifestFile, type RetiredFile } from './manifest.js';
import { PACKAGE_VERSION } from '../package-version.js';
import { safeFileToken } from '../partition-path.js';
import { inThreadWriter, type StagedFileWriter, type WrittenFile } from '../encode/staged-file-writer.js';
import type { TableEncoder } from '../encode/table-encoder.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import { localStorage } from '../storage/local-storage.js';
import { planDeltaIntent } from './delta-intent.js';
import { DEFAULT_TOMBSTONE_RETENTION_MS } from '../delta/delta-checkpoint-write.js';
import { deltaLogState, hasDeltaLog, type TableKind } from '../delta/table-kind.js';
import { lostDeltaLogError } from '../delta/lost-log-error.js';
import { deltaDrift, NO_DRIFT, type DeltaDrift } from './delta-drift.js';
import { readDeltaSnapshot } from '../delta/delta-snapshot.js';
import { lastCheckpointKey } from '../delta/delta-paths.js';
import { schemaMismatch, unsupportedWriterProtocol } from '../delta/delta-writable.js';
import { ConfigError, DeltaConflictError, DeltaLogError } from '../../core/errors.js';
import { logDeltaUpkeep } from './delta-upkeep-log.js';
import { lakeArgs } from '../../core/lake-args.js';

/** Staged files written and not yet uploaded, at most, on a remote backend (each multipart upload holds up to 4 parts of 8 MiB). */
const MAX_UPLOADS_IN_FLIGHT = 4;

/** A live file of the lake that a commit must merge with cannot be read: nothing was committed past it. The command names the lake, to be pasted. */
function damagedFileHint(storage: LakeStorage): string {
  return `a file the lake lists is missing or damaged, and this commit must merge with it: restore it from a backup (same name, same bytes), or drop it with "quotelake repair ${lakeArgs(storage.root, storage.endpoint)} --dry-run", then --yes (its rows leave the lake; it names the series to fetch again); then run the same command again`;
}

/** How long a replaced file stays on disk after the manifest stops listing it (default of `retiredGraceMs`). */
export const DEFAULT_RETIRED_GRACE_MS = TABLE_DEFAULTS.retiredGraceMs;

/** What `quotelake compact` did (or, dry run, would do) to one dataset. */
export interface CompactionReport {
  readonly dataset: string;
  readonly format: string;
  partitions: number;
  compactedPartitions: number;
  readonly filesBefore: number;
  filesAfter: number;
  readonly rows: number;
  readonly bytesBefore: number;
  bytesAfter: number;
  /** Retired files past their grace, deleted (dry run: that would be deleted). */
  readonly purged: number;
  /**
   * The run's signal stopped it between partitions: what was compacted before is committed, the
   * partitions after it are left as they were (a later compact takes them).
   */
  stopped: boolean;
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Live files by partition folder (manifest paths are relative to the dataset folder). */
const groupByPartition = (files: readonly ManifestFile[]) => groupBy(files, (f) => posix.dirname(f.path));

export interface PartitionedSinkOptions<R> {
  readonly outputDir: string;
  readonly spec: DatasetSpec<R>;
  readonly encoder: TableEncoder;
  readonly decimal: DecimalType;
  readonly maxRowsPerFile: number;
  readonly maxBufferedRows: number;
  readonly maxBufferedBytes: number;
  /**
   * Where staged files are encoded and written (default: on this thread with `encoder`); closed by
   * close(). A function is given that default writer and returns the one to use (e.g. one that
   * hands files to worker threads after a while).
   */
  readonly writer?: StagedFileWriter | ((inThread: StagedFileWriter) => StagedFileWriter);
  /** Where the lake lives (default: the local folder `outputDir`). */
  readonly storage?: LakeStorage;
  /** How long a replaced file stays on disk for readers of an older manifest (default 300000). */
  readonly retiredGraceMs?: number;
  /**
   * 'delta': also keep a Delta Lake log of the dataset (the encoder must then store microsecond
   * instants); 'hive' (default): plain hive files. A dataset's kind never changes (checked at recover and commit).
   */
  readonly table?: TableKind;
  /** The pipeline's name: the appId of its series watermarks in the Delta log (delta-txn.ts). */
  readonly pipeline?: string;
  /** Tests only: called after each roll-forward step (to simulate a crash). */
  readonly hooks?: RollForwardHooks;
}

/** What a staged file is built from: its row count, Arrow children and file metadata. */
interface FileContent {
  readonly length: number;
  /** Handed to the writer, which may move their buffers to another thread. */
  columns(): Data[];
  /** Which rows of the columns, in file order (FileJob.stretches); absent: all, as they are. */
  readonly stretches?: Int32Array;
  /** The dataset's own keys (spec.metadata); provenance and series are added by stage(). */
  metadata(): Record<string, string>;
  readonly series: SeriesMap;
}

/**
 * A partition's rows set aside, unsorted, as an uncompressed Arrow IPC stream in staging: cheap to
 * write and to read back (no encoding), so a partition that memory pressure flushes several times
 * is encoded once, when it is finished, instead of being encoded in pieces and then compacted.
 * Scratch only: never durable, never listed in a journal, removed with the run's staging.
 */
interface Spill {
  readonly key: string;
  readonly rows: number;
  readonly metadata: Record<string, string>;
}

interface StagedFile {
  readonly partition: string;
  /** Relative to the output root. */
  readonly stagingPath: string;
  readonly finalPath: string;
  readonly rows: number;
  readonly ranges: KeyRanges;
  /** Its rows' times as runs, when they fit (time-runs.ts): listed in the manifest beside `ranges`. */
  readonly times: TimeRuns | undefined;
  /** The file's key-value metadata (kept for compaction). */
  readonly metadata: ReadonlyMap<string, string>;
  /** Set once the file is durable in staging (every file is, after settle()). */
  written?: WrittenFile;
}

/** About 20 pages of 500 bars (see tookPage): 8 MB left the 5M-row run's peak 8 MB higher and ran more full collections. */
const PAGE_BYTES_PER_COLLECTION = 4 * 1024 * 1024;

export class PartitionedSink<R> implements Sink<R> {
  private readonly schema: Schema;
  private readonly buffers = new Map<string, PartitionBuffer<R>>();
  private readonly staged = new Map<string, StagedFile[]>();
  /** Buffers set aside under memory pressure, by partition, until the partition is finished. */
  private readonly spills = new Map<string, Spill[]>();
  /** The first instant of each partition held (buffered or spilled), for Batch.settledFrom. */
  private readonly partitionStarts = new Map<string, number>();
  private spillSeq = 0;
  /** Bytes of scanned pages taken since the last minor collection (see tookPage). */
  private pageBytes = 0;
  private readonly spillReader = new SpillReader();
  private bufferedRows = 0;
  private bufferedBytes = 0;
  private fileSeq = 0;
  /** Rows write() took since the last commit; less the rows the commit added, they are the merged ones. */
  private taken = 0;
  private runToken: string | undefined;
  /** The run's id as the runtime gave it (`quotelake.run_id` of every file this sink writes). */
  private runId: string | undefined;
  private readonly dataset: Dataset;
  private readonly writer: StagedFileWriter;
  /** Files handed to the writer and not yet durable; these promises never reject. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The first failure of a file in flight, thrown by the next write, flush or commit. */
  private failure: Error | undefined;
  private readonly decimalCheck: DecimalCheck<R> | undefined;
  private readonly storage: LakeStorage;
  private readonly retiredGraceMs: number;
  private scratchFolder: LocalScratch | undefined;
  /** The table's log was found writable by this sink (checked once per sink, see checkDeltaWritable). */
  private deltaWritable = false;

  constructor(private readonly options: PartitionedSinkOptions<R>) {
    this.storage = options.storage ?? localStorage(options.outputDir);
    // A Delta table's removed files serve readers of older versions (and time travel) for Delta's
    // retention, 7 days by default: they stay at least that long; `quotelake vacuum` may go sooner.
    const grace = options.retiredGraceMs ?? DEFAULT_RETIRED_GRACE_MS;
    this.retiredGraceMs = options.table === 'delta' ? Math.max(grace, DEFAULT_TOMBSTONE_RETENTION_MS) : grace;
    this.dataset = options.spec.dataset;
    this.decimalCheck = options.spec.decimalCheck?.(options.decimal);
    this.schema = datasetSchema(this.dataset, options.decimal);
    const given = options.writer;
    if (typeof given === 'function') this.writer = given(inThreadWriter(options.encoder, this.schema));
    else this.writer = given ?? inThreadWriter(options.encoder, this.schema);
  }

  private get stagingRoot(): string {
    return posix.join(STAGING_DIR, this.runToken!, `${this.dataset}-${this.options.encoder.format}`);
  }

  /** Rows with a decimal that does not fit the sink's DECIMAL(p,s) are returned as rejected, not written. */
  async write(batch: Batch<R>, ctx: RunContext): Promise<Rejected<R>[]> {
    this.throwIfFailed();
    this.runToken ??= safeFileToken(ctx.runId);
    this.runId ??= ctx.runId;
    this.writer.warm();
    const { spec, maxRowsPerFile, maxBufferedRows, maxBufferedBytes, decimal } = this.options;
    let last: string | undefined;
    let buf: PartitionBuffer<R> | undefined;
    const check = this.decimalCheck;
    const rejected: Rejected<R>[] = [];
    const records = batch.records;
    const lane = this.laneOf(records);
    if (lane !== undefined) await this.writeLane(lane);
    // An index loop: this is the sink's per-row path, and an iterator's result object a row showed in its allocations.
    for (let r = 0; lane === undefined && r < records.length; r++) {
      const row = records[r]!;
      const misfit = check?.(row, batch.stream);
      if (misfit !== undefined) {
        rejected.push(misfit);
        continue;
      }
      const partition = spec.partition(row);
      if (partition !== last || buf === undefined) {
        buf = this.buffers.get(partition);
        if (buf === undefined) {
          buf = new PartitionBuffer<R>(spec.builder?.(decimal));
          this.buffers.set(partition, buf);
          if (spec.partitionStart !== undefined) this.partitionStarts.set(partition, spec.partitionStart(row));
        }
        last = partition;
      }
      const bytes = spec.bytesPerRow(row);
      buf.add(row, spec.group(row), spec.order(row), bytes, spec.seriesKey(row), spec.seriesTime(row));
      this.bufferedRows++;
      this.bufferedBytes += bytes;
      if (buf.length >= maxRowsPerFile) {
        await this.flushPartition(partition);
        buf = undefined;
      }
    }
    if (batch.settledFrom !== undefined) await this.finishSettled(batch.settledFrom);
    while (this.bufferedRows > maxBufferedRows || this.bufferedBytes > maxBufferedBytes) {
      let largest: string | undefined;
      let size = -1;
      for (const [p, b] of this.buffers) {
        if (b.bytes > size) {
          size = b.bytes;
          largest = p;
        }
      }
      if (largest === undefined) break;
      await this.flushPartition(largest, true);
    }
    this.taken += batch.records.length - rejected.length;
    return rejected;
  }

  /**
   * The records of a parsed K-line lane, as the per-row loop of write() takes them, a run of rows
   * of one partition at a time: the lane's bars are one series in ascending time, so a run is
   * appended as a block, and the spec's keys are asked of a probe row at the run's ends (the
   * lane's code, interval and source, the record's instant). No record is made.
   */
  private async writeLane(lane: KlineLane): Promise<void> {
    const { spec, maxRowsPerFile, decimal } = this.options;
    const probe = { code: lane.code, interval: lane.interval, ts: 0, final: false, source: lane.source };
    const at = (r: number): R => {
      probe.ts = lane.seconds[r]! * 1000;
      probe.final = lane.final[r] === 1;
      return probe as unknown as R;
    };
    const n = lane.length;
    for (let r = 0; r < n; ) {
      // The run's first record: everything asked of it is asked before the probe moves on.
      const head = at(r);
      const partition = spec.partition(head);
      let buf = this.buffers.get(partition);
      if (buf === undefined) {
        buf = new PartitionBuffer<R>(spec.builder?.(decimal));
        this.buffers.set(partition, buf);
        if (spec.partitionStart !== undefined) this.partitionStarts.set(partition, spec.partitionStart(head));
      }
      const group = spec.group(head);
      const series = spec.seriesKey(head);
      const first = { order: spec.order(head), time: spec.seriesTime(head) };
      // A K-line's weight is the same for every bar of a series (its code).
      const bytes = spec.bytesPerRow(head);
      const room = maxRowsPerFile - buf.length;
      let end = r + 1;
      while (end < n && end - r < room && spec.partition(at(end)) === partition) end++;
      const tail = at(end - 1);
      const last = { order: spec.order(tail), time: spec.seriesTime(tail) };
      buf.addLaneRun(lane, r, end, group, first, last, bytes * (end - r), series);
      this.bufferedRows += end - r;
      this.bufferedBytes += bytes * (end - r);
      if (buf.length >= maxRowsPerFile) await this.flushPartition(partition);
      r = end;
    }
    this.tookPage(lane);
  }

  /**
   * A scanned page is done with once its lane is taken. A lane of the whole page hands the page's
   * buffer back for the next page (page-buffers.ts), unless something made a view of it; nothing
   * after the sink reads a batch's records, and a page split across batches (a shorter lane) is
   * left alone, as its other lanes are still to come.
   *
   * What is not recycled (the answer's body, a page's arrays otherwise) lives outside the
   * JavaScript heap and only a collection frees it. The lane makes so few objects that V8 seldom
   * runs a young-generation collection by itself, so dead pages piled up until V8 ran full
   * collections for them instead: 115 in a 5M-row backfill against 20-22 with a minor collection
   * per 4 MB of pages (minor-collection.ts), which costs about a millisecond.
   */
  private tookPage(lane: KlineLane): void {
    const page = lane.page;
    if (lane.length === page.count) page.recycle();
    this.pageBytes += page.externalBytes;
    if (this.pageBytes < PAGE_BYTES_PER_COLLECTION) return;
    this.pageBytes = 0;
    minorCollection();
  }

  /**
   * The parsed K-line lane of `records` when this sink can take it as it is: a K-line builder, the
   * sink's scale the lane's, and every value within the sink's precision (what the decimal check
   * would find). Anything else: undefined, and the records are read (and checked) one by one.
   */
  private laneOf(records: readonly R[]): KlineLane | undefined {
    const lane = this.dataset === 'kline' && this.options.spec.builder !== undefined ? klineLaneAt(laneOf(records), 'parsed') : undefined;
    if (lane === undefined) return undefined;
    lane.page.assertLive();
    const { precision, scale } = this.options.decimal;
    if (scale !== SCANNED_SCALE) return undefined;
    // A type with room for as many integer digits as a folded value can have takes them all.
    if (precision - scale >= MAX_FOLDED_INT_DIGITS) return lane;
    for (let i = 0; i < lane.length; i++) {
      const row = lane.row(i);
      for (let k = 0; k < 6; k++) if (!lane.page.foldedWithin(row, k, precision - scale)) return undefined;
    }
    return lane;
  }

  /**
   * Stage every partition that starts at or after `settledFrom`: no later row can be in it, so it
   * is finished now (encoded once, in the background) instead of waiting in memory or being spilled
   * and read back when memory runs short.
   */
  private async finishSettled(settledFrom: number): Promise<void> {
    for (const [partition, start] of this.partitionStarts) {
      if (start < settledFrom) continue;
      this.partitionStarts.delete(partition);
      await this.flushPartition(partition);
    }
  }

  async flush(_ctx?: RunContext): Promise<void> {
    this.partitionStarts.clear();
    for (const partition of new Set([...this.buffers.keys(), ...this.spills.keys()])) await this.flushPartition(partition);
    await this.settle();
  }

  /** Wait until every file in flight is durable; throw the first that failed. */
  private async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private dedupe(rows: readonly R[]): R[] {
    const { spec } = this.options;
    const byKey = new Map<string, R>();
    for (const row of rows) {
      const key = `${spec.group(row)}\u0001${spec.order(row)}`;
      const older = byKey.get(key);
      byKey.set(key, older !== undefined && spec.prefer ? spec.prefer(older, row) : row);
    }
    return [...byKey.values()];
  }

  /**
   * Stage a partition's buffer. Under memory pressure (`pressure`), a partition that may still grow
   * is spilled instead, until its spilled rows reach the compaction target; a partition with spills
   * is finished from them and its buffer, in key order, one row per key.
   */
  private async flushPartition(partition: string, pressure = false): Promise<void> {
    const buf = this.buffers.get(partition);
    const spills = this.spills.get(partition) ?? [];
    if (buf === undefined && spills.length === 0) return;
    if (buf !== undefined) {
      this.buffers.delete(partition);
      this.bufferedRows -= buf.length;
      this.bufferedBytes -= buf.bytes;
    }
    const builder = buf?.builder;
    if (pressure && builder !== undefined && this.columnar && spills.reduce((n, f) => n + f.rows, builder.length) < this.compactionTarget) {
      await this.spill(partition, builder);
      return;
    }
    if (spills.length > 0) {
      await this.finishSpilled(partition, spills, builder);
      return;
    }
    if (buf === undefined) return;
    const ranges = Object.fromEntries(buf.ranges);
    if (builder !== undefined && !buf.maybeDuplicates) {
      await this.stage(partition, { length: builder.length, columns: () => builder.columns(), metadata: () => builder.metadata(), series: buf.series }, ranges);
      return;
    }
    if (builder !== undefined && this.columnar) {
      // Pages of a backward walk arrive newest first: sorted and de-duplicated on the key columns.
      const metadata = builder.metadata();
      await this.stageKeyed(partition, [this.batchOf(builder)], () => metadata, true);
      return;
    }
    const all = builder !== undefined ? builder.rows() : buf.rows;
    const rows = buf.maybeDuplicates ? this.dedupe(all) : all;
    buf.rows = [];
    await this.stageRows(partition, rows, ranges);
  }

  /** One record batch of this schema from a builder's columns (its last use). */
  private batchOf(builder: ColumnBuilder<R>): RecordBatch {
    return this.batchOfColumns(builder.columns(), builder.length);
  }

  /** One record batch of this schema from its columns. */
  private batchOfColumns(children: Data[], length: number): RecordBatch {
    return new RecordBatch(this.schema, makeData({ type: new Struct(this.schema.fields), length, nullCount: 0, children }));
  }

  /** Each column of the picked rows of `batches`, copied (take-rows.ts). */
  private takeColumns(batches: readonly RecordBatch[], picks: RowPicks): Data[] {
    return this.schema.fields.map((_, c) => takeRows(batches.map((b) => b.data.children[c]!), picks));
  }

  /** Local files of this run (staged files before upload, spills): on local disk whatever the lake's storage. */
  private get scratch(): LocalScratch {
    this.scratchFolder ??= new LocalScratch(this.storage, this.runToken!, `${this.dataset}-${this.options.encoder.format}`);
    return this.scratchFolder;
  }

  private scratchPath(key: string): string {
    return this.scratch.path(key);
  }

  private async spill(partition: string, builder: ColumnBuilder<R>): Promise<void> {
    const rows = builder.length;
    const metadata = builder.metadata();
    const key = posix.join(this.stagingRoot, 'spill', partition, `spill-${String(++this.spillSeq).padStart(5, '0')}.arrows`);
    const path = this.scratchPath(key);
    await makeDir(posix.dirname(path));
    await writeSpill(path, new Table([this.batchOf(builder)]));
    const list = this.spills.get(partition);
    if (list) list.push({ key, rows, metadata });
    else this.spills.set(partition, [{ key, rows, metadata }]);
  }

  private async finishSpilled(partition: string, spills: readonly Spill[], builder: ColumnBuilder<R> | undefined): Promise<void> {
    this.spills.delete(partition);
    const batches: RecordBatch[] = [];
    const metadata: Map<string, string>[] = [];
    // Views of the reader's buffer: stageKeyed below copies every row out before the next partition's read.
    const tables = await this.spillReader.read(spills.map((s) => this.scratchPath(s.key)));
    for (const [i, s] of spills.entries()) {
      for (const b of tables[i]!.batches) batches.push(new RecordBatch(this.schema, b.data));
      metadata.push(new Map(Object.entries(s.metadata)));
      await this.scratch.discard(s.key);
    }
    if (builder !== undefined) {
      metadata.push(new Map(Object.entries(builder.metadata())));
      batches.push(this.batchOf(builder));
    }
    const merged = Object.fromEntries(mergeFileMetadata(metadata, new Map()));
    await this.stageKeyed(partition, batches, () => merged);
  }

  /** Whether this dataset merges on its key columns (flat columns and a key spec). */
  private get columnar(): boolean {
    return this.options.spec.columnarKeys !== undefined && takeable(this.schema.fields);
  }

  /**
   * Rows of `batches` (this schema) → staged files in key order, one row per key (columnar-keys.ts
   * decides which), at most maxRowsPerFile each. `owned`: the batches are this call's to hand over
   * (a finished partition's builder, one batch), so a file of the whole partition may name its rows
   * as stretches of them when they lie in long ones (row-stretches.ts); otherwise each file's
   * columns are gathered fresh for the writer.
   */
  private async stageKeyed(partition: string, batches: readonly RecordBatch[], metadata: () => Record<string, string>, owned = false): Promise<void> {
    const keys = keyColumns(batches, this.options.spec.columnarKeys!);
    const kept = dedupedOrder(keys);
    const { maxRowsPerFile } = this.options;
    for (let i = 0; i < kept.length; i += maxRowsPerFile) {
      const rows = kept.subarray(i, i + maxRowsPerFile);
      const picks = picksOf(keys, rows);
      const { ranges, series, times } = rangesAndSeries(keys, rows);
      // Stretches of the builder's own columns, which the writer may move: only when this is the one file.
      const stretches = owned && rows.length === kept.length ? rowStretches(picks) : undefined;
      const columns = stretches !== undefined ? batches[0]!.data.children : this.takeColumns(batches, picks);
      await this.stage(partition, { length: rows.length, columns: () => [...columns], ...(stretches && { stretches }), metadata, series }, ranges, times);
    }
  }

  /** `inherited`: keys taken over from the files a merge replaces (their source endpoints). */
  private stageRows(partition: string, rows: readonly R[], ranges: KeyRanges, inherited?: Record<string, string>): Promise<void> {
    const { spec, decimal } = this.options;
    const series = seriesOfRows(rows, (r) => spec.seriesKey(r), (r) => spec.seriesTime(r));
    return this.stage(partition, { length: rows.length, columns: () => spec.columns(rows, decimal), metadata: () => ({ ...spec.metadata(rows), ...inherited }), series }, ranges);
  }

  /** The provenance keys of this run's files (file-provenance.ts). */
  private provenance(): Map<string, string> {
    return fileProvenance(this.dataset, this.runId ?? this.runToken ?? '');
  }

  /** Hand one file to the writer; it is durable once settle() resolves. */
  private async stage(partition: string, content: FileContent, ranges: KeyRanges, times?: TimeRuns): Promise<void> {
    const { encoder } = this.options;
    // Room first, so no more columns are built than the writer bounds.
    await this.writer.ready();
    this.throwIfFailed();
    const rows = content.length;
    const metadata = new Map<string, string>([...this.provenance(), ...Object.entries(content.metadata()), [SERIES_KEY, formatSeries(content.series)]]);
    const columns = content.columns();
    const file = this.newStagedFile(partition, rows, ranges, metadata, times);
    // The writer (possibly a worker thread) writes the file itself, so it needs a local path: a
    // remote backend stages in local scratch and uploads the file to its staging key once written.
    const scratch = this.scratch;
    // The writer bounds files being encoded, not uploads after them: a remote backend bounds those
    // here, so a store slower than the encoder holds back the run instead of piling up uploads.
    while (scratch.remote && this.inFlight.size >= MAX_UPLOADS_IN_FLIGHT) await Promise.race(this.inFlight);
    const path = scratch.path(file.stagingPath);
    const done = this.writer
      .write({ path, rows, columns, ...(content.stretches && { stretches: content.stretches }), metadata })
      .then(async (written) => {
        await scratch.upload(file.stagingPath);
        file.written = written;
      })
      .catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.failure ??= new SinkError(`${encoder.format}: cannot stage ${rows} ${this.dataset} rows for ${partition}: ${why}`, 'write', error);
      });
    this.inFlight.add(done);
    void done.then(() => this.inFlight.delete(done));
    // Let the event loop breathe (and the GC reclaim the WASM/IPC buffers) between files.
    await yieldToLoop();
  }

  /** Name the partition's next staged file and list it (it is durable once `written` is set). */
  private newStagedFile(partition: string, rows: number, ranges: KeyRanges, metadata: ReadonlyMap<string, string>, times?: TimeRuns): StagedFile {
    const name = `part-${this.runToken}-${String(++this.fileSeq).padStart(5, '0')}${this.options.encoder.extension}`;
    const file: StagedFile = { partition, stagingPath: posix.join(this.stagingRoot, partition, name), finalPath: posix.join(this.dataset, partition, name), rows, ranges, times, metadata };
    const list = this.staged.get(partition);
    if (list) list.push(file);
    else this.staged.set(partition, [file]);
    return file;
  }

  /** The rows a compacted file may hold, and a compaction may hold in memory at once. */
  private get compactionTarget(): number {
    return Math.min(this.options.maxRowsPerFile, this.options.maxBufferedRows);
  }

  /** Key of a live file (manifest paths are relative to the dataset folder). */
  private liveKey(f: { path: string }): string {
    return posix.join(this.dataset, f.path);
  }

  private async readTable(key: string): Promise<Table> {
    const bytes = await this.storage.read(key);
    if (bytes === undefined) throw new SinkError(`${this.dataset}: ${key} is listed but missing in ${this.storage.root}`, 'commit', undefined, damagedFileHint(this.storage));
    try {
      return this.options.encoder.decode(bytes);
    } catch (error) {
      // The decoder's own words ("Corrupt footer") name no file: this does, and what to do.
      throw new SinkError(`${this.dataset}: ${key} in ${this.storage.root} cannot be read, the file is damaged (${(error as Error).message})`, 'commit', error, damagedFileHint(this.storage));
    }
  }

  /** Forget staged files that were merged or compacted into others, and delete them from staging. */
  private async dropStaged(partition: string, files: readonly StagedFile[]): Promise<void> {
    const gone = new Set(files);
    this.staged.set(partition, (this.staged.get(partition) ?? []).filter((f) => !gone.has(f)));
    for (const f of files) await this.storage.delete(f.stagingPath);
  }

  /**
   * Disjoint files of one partition (live and staged, in key order) → staged files of exactly
   * compactionTarget rows and one remainder, batch by batch: there is nothing to de-duplicate, so
   * no row objects (the row path of merge() costs about ten times the time and memory). Less than
   * twice the target rows are decoded at once (what is pending, plus one small file). When it all
   * fits one file (a day's pieces, the usual case) its rows are put in key order on the key
   * columns; files cut at the target keep the inputs' order, each input's rows in key order.
   * Encoded on this thread; the caller has settled every file in flight.
   */
  private async compact(partition: string, inputs: readonly (ManifestFile | StagedFile)[], isLive: (f: ManifestFile | StagedFile) => f is ManifestFile): Promise<void> {
    const { encoder, spec } = this.options;
    const target = this.compactionTarget;
    let pending: RecordBatch[] = [];
    let pendingRows = 0;
    /** Metadata of the inputs whose rows are pending. */
    let contributors: ReadonlyMap<string, string>[] = [];
    const outputs: StagedFile[] = [];
    const emit = async (rows: number): Promise<void> => {
      const all = new Table(pending);
      const head = all.slice(0, rows);
      const rest = all.slice(rows);
      // The head may hold part of a contributor's rows: its series are counted from its own columns.
      const keys = tableKeys(head, spec, partition);
      const metadata = mergeFileMetadata(contributors, this.provenance(), keys.series);
      const file = this.newStagedFile(partition, rows, keys.ranges, metadata, keys.times);
      outputs.push(file);
      const bytes = encoder.encode(head, metadata);
      await this.storage.put(file.stagingPath, bytes);
      file.written = { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      pending = rest.batches.filter((b) => b.numRows > 0);
      pendingRows -= rows;
      contributors = pendingRows > 0 ? contributors.slice(-1) : [];
    };
    // A file of another schema (an older layout, another decimal type) sends the whole set down
    // the row path; what was written from it so far is dropped first.
    for (const f of inputs) {
      const table = await this.readTable(isLive(f) ? this.liveKey(f) : f.stagingPath);
      if (!sameColumnTypes(table.schema, this.schema)) {
        await this.dropStaged(partition, outputs);
        return this.merge(partition, inputs.filter(isLive), inputs.filter((x): x is StagedFile => !isLive(x)));
      }
      for (const batch of table.batches) pending.push(new RecordBatch(this.schema, batch.data));
      pendingRows += table.numRows;
      contributors.push(isLive(f) ? table.schema.metadata : f.metadata);
      while (pendingRows >= target) await emit(target);
    }
    if (pendingRows > 0) {
      // All of it one file: put in key order. Disjoint files of several codes each (two runs of a
      // minute updater, say) otherwise come out as one code's bars, another's, then the first's again.
      if (outputs.length === 0 && this.columnar) pending = this.inKeyOrder(pending);
      await emit(pendingRows);
    }
    await this.dropStaged(partition, inputs.filter((x): x is StagedFile => !isLive(x)));
  }

  /** Disjoint rows in key order, as one batch; as they were if any key repeats (never for disjoint files). */
  private inKeyOrder(batches: RecordBatch[]): RecordBatch[] {
    const keys = keyColumns(batches, this.options.spec.columnarKeys!);
    const kept = dedupedOrder(keys);
    if (kept.length !== keys.length) return batches;
    return [this.batchOfColumns(this.takeColumns(batches, picksOf(keys, kept)), kept.length)];
  }

  /** Merge the given live and staged files of one partition into new staged file(s), by primary key. */
  private async merge(partition: string, live: readonly ManifestFile[], staged: readonly StagedFile[]): Promise<void> {
    const tables: Table[] = [];
    for (const f of live) tables.push(await this.readTable(this.liveKey(f)));
    // Staged files are durable here: commit() settles before it merges.
    for (const f of staged) tables.push(await this.readTable(f.stagingPath));
    const metadata = tables.map((t) => new Map(t.schema.metadata));
    if (this.columnar && tables.every((t) => sameColumnTypes(t.schema, this.schema))) {
      const batches = tables.flatMap((t) => t.batches.map((b) => new RecordBatch(this.schema, b.data)));
      // Source endpoints and the dataset's keys come from the files (stage() adds this run's provenance).
      const merged = Object.fromEntries(mergeFileMetadata(metadata, new Map()));
      await this.dropStaged(partition, staged);
      await this.stageKeyed(partition, batches, () => merged);
      return;
    }
    await this.mergeRows(partition, tables, metadata, staged);
  }

  /** The row path of merge(): files of another layout or decimal type, and datasets without key columns. */
  private async mergeRows(partition: string, tables: readonly Table[], metadata: readonly Map<string, string>[], staged: readonly StagedFile[]): Promise<void> {
    const { spec, maxRowsPerFile } = this.options;
    const all: R[] = [];
    for (const table of tables) all.push(...spec.fromTable(table, partition));
    // Rows read back no longer say which endpoint they came from: the files' metadata does.
    const endpoints = mergeFileMetadata(metadata, new Map()).get(SOURCE_ENDPOINT);
    const inherited = endpoints === undefined ? undefined : { [SOURCE_ENDPOINT]: endpoints };
    const rows = this.dedupe(all);
    rows.sort((a, b) => {
      const ga = spec.group(a);
      const gb = spec.group(b);
      return ga < gb ? -1 : ga > gb ? 1 : compareOrder(spec.order(a), spec.order(b));
    });
    await this.dropStaged(partition, staged);
    for (let i = 0; i < rows.length; i += maxRowsPerFile) {
      const chunk = rows.slice(i, i + maxRowsPerFile);
      const ranges: KeyRanges = {};
      for (const row of chunk) widenRange(ranges, spec.group(row), spec.order(row));
      try {
        await this.stageRows(partition, chunk, ranges, inherited);
      } catch (error) {
        throw heldDecimalMisfit(error, this.dataset, partition, tables.map((t) => t.schema), this.options.decimal);
      }
    }
  }

  /**
   * Bring one partition within its file bound (compaction-plan.ts): small live files of earlier
   * commits and runs are compacted with this run's files. Returns the live files it replaced.
   */
  private async compactPartition(partition: string, live: readonly ManifestFile[]): Promise<ManifestFile[]> {
    await this.settle();
    const staged = this.staged.get(partition) ?? [];
    const small = planCompaction<ManifestFile | StagedFile>([...live, ...staged], this.compactionTarget);
    if (small.length === 0) return [];
    const liveSet = new Set<unknown>(live);
    const isLive = (f: ManifestFile | StagedFile): f is ManifestFile => liveSet.has(f);
    await this.compact(partition, small, isLive);
    return small.filter(isLive);
  }

  async commit(ctx: RunContext): Promise<CommitReceipt> {
    await this.flush();
    const taken = this.taken;
    this.taken = 0;
    if (this.staged.size === 0) {
      // Nothing written: still delete retired files whose grace has passed.
      await this.purgeRetired(ctx);
      return { files: [], rows: 0, merged: taken };
    }
    // The rows this run wrote, before merging with live files: what "rows written" means to a user.
    const ownRows = [...this.staged.values()].flat().reduce((n, f) => n + f.rows, 0);
    const { spec } = this.options;
    const previous = await readManifest(this.storage, this.dataset, this.options.encoder.format);
    await this.checkTableKind(previous);
    await this.checkDeltaWritable();
    const liveByPartition = groupByPartition(previous?.files ?? []);
    const removed = new Map<string, ManifestFile>();
    try {
      for (const [partition, files] of [...this.staged]) {
        const live = liveByPartition.get(partition) ?? [];
        const all: { ranges: Readonly<Record<string, readonly [Order, Order]>> }[] = [...live, ...files];
        let merge = spec.alwaysMerge === true ? all.length > 1 : false;
        for (let i = 0; i < all.length && !merge; i++) {
          for (let j = i + 1; j < all.length && !merge; j++) merge = overlaps(all[i]!.ranges, all[j]!.ranges);
        }
        let untouched = live;
        if (merge) {
          // Only live files that take part are rewritten by key; disjoint ones are left to compaction.
          const touching = live.filter((f) => files.some((s) => overlaps(f.ranges, s.ranges)) || spec.alwaysMerge === true);
          await this.merge(partition, touching, files);
          for (const f of touching) removed.set(f.path, f);
          untouched = live.filter((f) => !removed.has(f.path));
        }
        for (const f of await this.compactPartition(partition, untouched)) removed.set(f.path, f);
      }
      // The journal lists only durable files.
      await this.settle();
    } catch (error) {
      throw error instanceof SinkError || error instanceof ConfigError ? error : new SinkError(`${this.dataset}: commit failed: ${error instanceof Error ? error.message : String(error)}`, 'commit', error);
    }
    const added = [...this.staged.values()].flat();
    // Merging and compaction keep every distinct key and add none: the dataset grew by the rows
    // added less the rows of the files they replaced; whatever else this commit took met a held key.
    const grown = added.reduce((n, f) => n + f.rows, 0) - [...removed.values()].reduce((n, f) => n + f.rows, 0);
    const merged = Math.max(0, taken - grown);
    // The journal carries the counts too: a run that finishes this commit for a killed one tells them.
    const noted = ctx.journalNote !== undefined ? { ...ctx, journalNote: { ...ctx.journalNote, taken, merged } } : ctx;
    await this.publish(noted, previous, added, [...removed.values()]);
    this.staged.clear();
    await this.removeStaging();
    // In path order, whatever order memory pressure staged them in.
    const files: CommittedFile[] = added.map((f) => ({ path: f.finalPath, rows: f.rows, bytes: f.written!.bytes })).sort(byPath);
    ctx.events.rows(this.dataset, 'written', ownRows);
    return { files, rows: ownRows, merged };
  }

  /**
   * Journal, roll forward, then delete what the grace allows. The new manifest lists `retired`
   * (replaced now, or earlier and still within the grace); files whose grace has passed leave the
   * manifest first and are deleted after it is published, so no manifest ever lists a missing file.
   */
  private async publish(
    ctx: RunContext,
    previous: Manifest | undefined,
    added: readonly StagedFile[],
    retire: readonly ManifestFile[],
    operation: 'WRITE' | 'OPTIMIZE' | 'FSCK' = 'WRITE',
    /** The log made to agree with the manifest (repair): the log alone changes. */
    drift: DeltaDrift = NO_DRIFT,
  ): Promise<void> {
    const { encoder } = this.options;
    const now = ctx.clock.now();
    const delta =
      this.options.table === 'delta'
        ? planDeltaIntent({
            dataset: this.dataset,
            operation,
            added: [
              ...added.map((f) => ({ finalPath: f.finalPath, bytes: f.written!.bytes, metadata: f.metadata })),
              ...drift.unlogged.map((f) => ({ finalPath: this.liveKey(f), bytes: f.bytes, metadata: new Map<string, string>() })),
            ],
            replaced: [...retire, ...drift.unlisted],
            pipeline: this.options.pipeline ?? this.dataset,
            decimal: this.options.decimal,
            now,
          })
        : undefined;
    const gone = new Set(retire.map((f) => f.path));
    const manifestFiles: ManifestFile[] = (previous?.files ?? []).filter((f) => !gone.has(f.path));
    for (const f of added) {
      const { bytes, sha256 } = f.written!;
      manifestFiles.push({ path: posix.relative(this.dataset, f.finalPath), rows: f.rows, bytes, sha256, ranges: f.ranges, ...(f.times && { times: f.times }) });
    }
    const { keep, expired } = this.splitRetired(previous, now);
    const retiredAt = new Date(now).toISOString();
    // No grace: what this commit replaces goes as soon as the manifest no longer lists it.
    const graceless = this.retiredGraceMs <= 0;
    if (graceless) expired.push(...retire.map((f) => ({ path: f.path, rows: f.rows, bytes: f.bytes, retiredAt })));
    const manifest: Manifest = {
      version: MANIFEST_VERSION,
      dataset: this.dataset,
      format: encoder.format,
      schemaVersion: SCHEMA_VERSION,
      quotelakeVersion: PACKAGE_VERSION,
      updatedAt: retiredAt,
      // Recorded at every commit: a table whose log is lost later is still known to be one.
      ...(encoder.format === 'parquet' ? { table: this.options.table === 'delta' ? ('delta' as const) : ('hive' as const) } : {}),
      files: manifestFiles.sort(byPath),
      retired: [...keep, ...(graceless ? [] : retire.map((f) => ({ path: f.path, rows: f.rows, bytes: f.bytes, retiredAt })))].sort(byPath),
    };
    const journal: CommitJournal = {
      version: 2,
      runId: this.runToken ?? safeFileToken(ctx.runId),
      dataset: this.dataset,
      format: encoder.format,
      add: added.map((f) => ({ from: f.stagingPath, to: f.finalPath })),
      retire: retire.map((f) => this.liveKey(f)),
      manifest,
      ...(delta !== undefined ? { delta } : {}),
      ...(ctx.journalNote !== undefined ? { note: ctx.journalNote } : {}),
    };
    try {
      await writeJournal(this.storage, journal);
      const guard = () => ctx.lease?.assertHeld();
      logDeltaUpkeep(ctx.logger, this.dataset, await rollForward(this.storage, journal, this.options.hooks, guard));
      guard();
      for (const f of expired) await this.storage.delete(this.liveKey(f));
      if (expired.length > 0) {
        ctx.logger.info('deleted retired files past their grace', { event: 'recovery', action: 'retired-swept', dataset: this.dataset, files: expired.length, bytes: expired.reduce((n, f) => n + f.bytes, 0) });
      }
    } catch (error) {
      // A Delta conflict or log error keeps its code (the CLI tells what to do about each).
      throw error instanceof SinkError || error instanceof ConfigError || error instanceof DeltaConflictError || error instanceof DeltaLogError ? error : new SinkError(`${this.dataset}: commit failed: ${error instanceof Error ? error.message : String(error)}`, 'commit', error);
    }
  }

  private splitRetired(manifest: Manifest | undefined, now: number): { keep: RetiredFile[]; expired: RetiredFile[] } {
    const keep: RetiredFile[] = [];
    const expired: RetiredFile[] = [];
    for (const f of manifest?.retired ?? []) {
      if (now - Date.parse(f.retiredAt) >= this.retiredGraceMs) expired.push(f);
      else keep.push(f);
    }
    return { keep, expired };
  }

  /**
   * `quotelake repair`: of the live files the manifest lists (`files` of them), those missing,
   * that cannot be decoded (which every commit into their partitions would stop at), whose bytes
   * are not those committed, or whose record names other rows than they hold (`bad`). Reads every live file whole. A changed file that still decodes
   * is no less damaged: a flipped bit in a decimal column reads as another price, so its rows are
   * dropped for the runs to fetch again rather than kept wrong.
   */
  async unreadableFiles(): Promise<{ files: number; bad: { file: ManifestFile; problem: string }[] }> {
    const live = (await readManifest(this.storage, this.dataset, this.options.encoder.format))?.files ?? [];
    const out: { file: ManifestFile; problem: string }[] = [];
    for (const file of live) {
      const bytes = await this.storage.read(this.liveKey(file));
      if (bytes === undefined) {
        out.push({ file, problem: 'missing' });
        continue;
      }
      let rows: number;
      try {
        rows = this.options.encoder.decode(bytes).numRows;
      } catch (error) {
        out.push({ file, problem: `damaged (${bytes.length} of ${file.bytes} bytes: ${(error as Error).message})` });
        continue;
      }
      if (bytes.length !== file.bytes || createHash('sha256').update(bytes).digest('hex') !== file.sha256) {
        out.push({ file, problem: `changed since its commit (${bytes.length} of ${file.bytes} bytes, sha256 not the one committed): its values cannot be trusted` });
      } else if (rows !== file.rows) {
        // The file is the one committed, its record is not (a hand edit): inspect calls it a problem,
        // and the record's rows and key ranges steer every merge into the partition.
        out.push({ file, problem: `holds ${rows} rows where the manifest says ${file.rows}: its record was changed since its commit, so the rows it names cannot be trusted` });
      }
    }
    return { files: live.length, bad: out };
  }

  /**
   * `quotelake repair`: the manifest (and a Delta table's log, as removes) stops listing these live
   * files, through the same journaled commit as any other; they are retired like replaced files.
   * The caller holds the output and has run recover().
   */
  async dropFiles(ctx: RunContext, files: readonly ManifestFile[]): Promise<void> {
    if (files.length === 0) return;
    this.runToken ??= safeFileToken(ctx.runId);
    const previous = await readManifest(this.storage, this.dataset, this.options.encoder.format);
    await this.checkTableKind(previous);
    await this.publish(ctx, previous, [], files);
  }

  /** `quotelake repair`: where the table's Delta log and its manifest disagree (delta-drift.ts). */
  async deltaDrift(): Promise<DeltaDrift> {
    return this.options.table === 'delta' ? deltaDrift(this.storage, this.dataset, this.options.encoder.format) : NO_DRIFT;
  }

  /**
   * `quotelake repair`: one Delta version that makes the log's live files the manifest's (the
   * manifest is quotelake's commit point): removes for the files it does not list, adds for the
   * ones it lists and the log removed; through the same journaled commit as any other, the
   * manifest's files unchanged. A removed file still on storage is an orphan the next recovery
   * sweeps (no manifest lists it, and the log no longer has it live).
   */
  async reconcileDeltaLog(ctx: RunContext, drift: DeltaDrift): Promise<void> {
    if (drift.unlisted.length === 0 && drift.unlogged.length === 0) return;
    this.runToken ??= safeFileToken(ctx.runId);
    const previous = await readManifest(this.storage, this.dataset, this.options.encoder.format);
    await this.checkTableKind(previous, { mendsLostLog: drift.logLost === true });
    // A hint left by the lost log names a checkpoint no longer there: the new log starts without one.
    if (drift.logLost === true) await this.storage.delete(lastCheckpointKey(this.dataset));
    await this.publish(ctx, previous, [], [], 'FSCK', drift);
  }

  /** Delete the retired files whose grace has passed (a manifest without them is published first). */
  async purgeRetired(ctx: RunContext): Promise<RetiredFile[]> {
    const previous = await readManifest(this.storage, this.dataset, this.options.encoder.format);
    const { expired } = this.splitRetired(previous, ctx.clock.now());
    if (previous === undefined || expired.length === 0) return [];
    await this.publish(ctx, previous, [], []);
    return expired;
  }

  /**
   * `quotelake compact` for this dataset: every partition the manifest lists is brought within its
   * file bound, then expired retired files are deleted. With `dryRun`, only the plan is returned.
   * The caller holds the output (its lock) and has run recover().
   */
  async compactAll(ctx: RunContext, options: { dryRun: boolean }): Promise<CompactionReport> {
    const { encoder } = this.options;
    this.runToken ??= safeFileToken(ctx.runId);
    const previous = await readManifest(this.storage, this.dataset, encoder.format);
    if (!options.dryRun) {
      await this.checkTableKind(previous);
      await this.checkDeltaWritable();
    }
    const files = previous?.files ?? [];
    const report: CompactionReport = {
      dataset: this.dataset,
      format: encoder.format,
      partitions: 0,
      compactedPartitions: 0,
      filesBefore: files.length,
      filesAfter: files.length,
      rows: files.reduce((n, f) => n + f.rows, 0),
      bytesBefore: files.reduce((n, f) => n + f.bytes, 0),
      bytesAfter: files.reduce((n, f) => n + f.bytes, 0),
      purged: this.splitRetired(previous, ctx.clock.now()).expired.length,
      stopped: false,
    };
    const byPartition = groupByPartition(files);
    report.partitions = byPartition.size;
    const replaced: ManifestFile[] = [];
    for (const [partition, live] of byPartition) {
      // Between partitions, never inside one: a stop commits every partition already compacted.
      if (ctx.signal.aborted) {
        report.stopped = true;
        break;
      }
      if (options.dryRun) {
        const small = planCompaction(live, this.compactionTarget);
        if (small.length > 0) report.compactedPartitions++;
        report.filesAfter += filesAfter(live.length, small, this.compactionTarget) - live.length;
        continue;
      }
      this.staged.set(partition, []);
      const gone = await this.compactPartition(partition, live);
      if (gone.length > 0) {
        report.compactedPartitions++;
        ctx.logger.debug('partition compacted (staged; committed with the dataset)', { event: 'compaction', dataset: this.dataset, format: encoder.format, partition, files: gone.length });
      }
      replaced.push(...gone);
      await this.settle();
    }
    if (options.dryRun) return report;
    const added = [...this.staged.values()].flat();
    if (added.length > 0 || report.purged > 0) {
      await this.publish(ctx, previous, added, replaced, 'OPTIMIZE');
      ctx.logger[added.length > 0 ? 'info' : 'debug']('compacted', {
        event: 'commit',
        operation: 'compact',
        dataset: this.dataset,
        format: encoder.format,
        partitions: report.compactedPartitions,
        files: added.length,
        retired: replaced.length,
        rows: added.reduce((n, f) => n + f.rows, 0),
        bytes: added.reduce((n, f) => n + f.written!.bytes, 0),
        ...(report.stopped ? { stopped: true } : {}),
      });
    }
    this.staged.clear();
    await this.removeStaging();
    report.filesAfter = files.length - replaced.length + added.length;
    report.bytesAfter = report.bytesBefore - replaced.reduce((n, f) => n + f.bytes, 0) + added.reduce((n, f) => n + f.written!.bytes, 0);
    return report;
  }

  /**
   * A dataset is a Delta table from its first commit or never: files committed without a log (or
   * a log left stale by a hive commit) would make the two views of the data disagree.
   */
  private async checkTableKind(manifest: Manifest | undefined, options: { mendsLostLog?: boolean } = {}): Promise<void> {
    // Arrow IPC files are no Delta data files (the config refuses table: delta for them).
    if (this.options.encoder.format !== 'parquet') return;
    const where = `${this.storage.root}/${this.dataset}`;
    // Whatever the sink is told: a commit would start a new table of its own files (or go on as
    // hive files beside a table Delta readers can no longer open). Repair writes the log again.
    const { logged, lost } = await deltaLogState(this.storage, this.dataset, manifest);
    if (lost) {
      // Repair writes it again, as a Delta table's (its sink is one: lake-tables.ts).
      if (options.mendsLostLog === true) return;
      throw lostDeltaLogError(this.storage, this.dataset, manifest!.files.length, 'nothing is written to it as it is', 'run again');
    }
    if (this.options.table === 'delta' && !logged && (manifest?.files.length ?? 0) > 0) {
      throw new ConfigError(
        `${where} already holds ${manifest!.files.length} Parquet files written without a Delta log (sink.table: hive); ` +
          'a Delta table starts empty: write it to a new output, or keep sink.table: hive here',
      );
    }
    if (this.options.table !== 'delta' && logged) {
      throw new ConfigError(`${where} is a Delta table (it has a _delta_log/): set sink.table: delta (or --table delta), or its log would miss this commit`);
    }
  }

  /**
   * A Delta table this sink adds files to must take them: its protocol no newer than quotelake
   * writes, its schema the one of this sink's files (the same DECIMAL(p,s)). Once per sink when it
   * holds (a run's commits write the same types); a table not created yet always holds. Without
   * `rows` (repair: removes only, at no decimal of its own) the protocol alone is checked.
   */
  private async checkDeltaWritable(rows = true): Promise<void> {
    if (this.options.table !== 'delta' || this.deltaWritable) return;
    const snapshot = await readDeltaSnapshot(this.storage, this.dataset);
    if (snapshot === undefined) return;
    const where = `${this.storage.root}/${this.dataset}`;
    const protocol = unsupportedWriterProtocol(snapshot.protocol);
    if (protocol !== undefined) throw new DeltaLogError(protocol, where);
    if (!rows) return;
    const schema = schemaMismatch(snapshot.metaData, this.dataset, this.options.decimal);
    if (schema !== undefined) throw new ConfigError(`${where}: ${schema}`);
    this.deltaWritable = true;
  }

  private async removeStaging(): Promise<void> {
    if (this.runToken === undefined) return;
    await this.storage.deletePrefix(`${this.stagingRoot}/`);
    await this.scratchFolder?.remove();
  }

  async abort(ctx?: RunContext): Promise<void> {
    this.buffers.clear();
    this.staged.clear();
    this.spills.clear();
    this.partitionStarts.clear();
    this.bufferedRows = 0;
    this.bufferedBytes = 0;
    this.taken = 0;
    // Nothing may still be writing into staging when it is removed below.
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    this.failure = undefined;
    // A lost lease: another writer holds the lake and finishes (or sweeps) what this run left in it;
    // touching it now would write over that writer's commits. This machine's scratch is still ours.
    if (leaseLost(ctx)) {
      await this.scratchFolder?.remove();
      return;
    }
    if (this.runToken !== undefined) {
      // A commit whose journal is written is decided: finish it rather than strand it half-applied.
      const { encoder } = this.options;
      const pending = (await pendingJournals(this.storage, { dataset: this.dataset, format: encoder.format })).filter((j) => j.runId === this.runToken);
      for (const journal of pending) {
        await rollForward(this.storage, journal, {}, () => ctx?.lease?.assertHeld());
        ctx?.logger.info('a decided commit was finished during abort', { event: 'recovery', action: 'journal-replayed', dataset: this.dataset, files: journal.add.length });
      }
    }
    await this.removeStaging();
  }

  /**
   * Finish or undo what a killed writer left. With `ctx`, its steps are logged and expired retired
   * files deleted, unless `purgeRetired` is false (compactAll purges and reports them itself).
   * `mendsDeltaLog`: the caller (repair) makes the Delta log agree with the manifest next, so the
   * files only the log names are not warned of.
   */
  async recover(ctx?: RunContext, options: { purgeRetired?: boolean; writesRows?: boolean; mendsDeltaLog?: boolean } = {}): Promise<void> {
    const { encoder } = this.options;
    await this.refuseFileAsFolder();
    const runs = new Set<string>();
    for (const journal of await pendingJournals(this.storage, { dataset: this.dataset, format: encoder.format })) {
      await rollForward(this.storage, journal);
      runs.add(journal.runId);
      ctx?.logger.info('finished a commit a killed run had decided (journal replayed)', {
        event: 'recovery',
        action: 'journal-replayed',
        dataset: this.dataset,
        format: encoder.format,
        journalRun: journal.runId,
        files: journal.add.length,
        retired: journal.retire.length,
      });
    }
    // Stale staging of this dataset and format, whatever run left it (we hold the output).
    const mine = `${this.dataset}-${encoder.format}`;
    // The temp file of a journal whose writer was killed mid-write: its commit never began.
    const journalTemp = `.${this.dataset}.${encoder.format}.journal.json`;
    const halfJournals: string[] = [];
    for (const key of await this.storage.list(`${STAGING_DIR}/`)) {
      const parts = key.split('/');
      if (parts[3] === mine && parts.length > 4) runs.add(parts[2]!);
      else if (parts.length === 4 && parts[3]!.startsWith(journalTemp) && isTempFile(parts[3]!)) halfJournals.push(key);
    }
    for (const run of runs) await this.storage.deletePrefix(`${STAGING_DIR}/${run}/${mine}/`);
    for (const key of halfJournals) await this.storage.delete(key);
    if (this.storage.localPath(STAGING_DIR) === undefined) await removeStaleScratch(this.storage, runs);
    if (runs.size > 0) ctx?.logger.info('removed the staging of killed runs', { event: 'recovery', action: 'staging-removed', dataset: this.dataset, runs: [...runs] });
    // A manifest's temp file whose writer was killed (we hold the output, so no writer is live).
    for (const key of await this.storage.list(`${MANIFESTS_DIR}/`)) if (isTempFile(key)) await this.storage.delete(key);
    await this.checkTableKind(await readManifest(this.storage, this.dataset, encoder.format), { mendsLostLog: options.mendsDeltaLog === true });
    // Before a run fetches anything: rows it could not commit would be fetched for nothing.
    await this.checkDeltaWritable(options.writesRows !== false);
    const orphans = await this.sweepOrphans();
    if (orphans.swept > 0) ctx?.logger.info('deleted files no manifest lists (left by a killed run)', { event: 'recovery', action: 'orphans-swept', dataset: this.dataset, files: orphans.swept });
    // Repair mends the log right after: it would warn of what it is about to mend, and send the user to itself.
    if (orphans.keptForDelta > 0 && options.mendsDeltaLog !== true) {
      const n = orphans.keptForDelta;
      ctx?.logger.warn(
        `kept ${n} file${n === 1 ? '' : 's'} of ${this.dataset} that its Delta log has live but its manifest does not list: "quotelake repair ${lakeArgs(this.storage.root, this.storage.endpoint)} --dry-run" shows the table's log and manifest disagreeing`,
        { event: 'recovery', action: 'delta-files-kept', dataset: this.dataset, files: n },
      );
    }
    if (ctx !== undefined && options.purgeRetired !== false) await this.purgeRetired(ctx);
  }

  /**
   * A file where the dataset's folder goes (a local output only: keys on an object store are no
   * folders). Refused when the run starts: the first commit would fail after every row was fetched.
   */
  private async refuseFileAsFolder(): Promise<void> {
    const folder = this.storage.localPath(this.dataset);
    if (folder === undefined || (await stat(folder).catch(() => undefined))?.isFile() !== true) return;
    throw new ConfigError(`${this.dataset}: ${folder} is a file, where the dataset's folder goes: move the file away, or choose another --output`);
  }

  /**
   * Delete part files (and temp files) in the dataset tree that the manifest lists neither as live
   * nor as retired. A file live in the table's Delta log is kept whatever the manifest says: a
   * Delta reader opens it (`quotelake repair` mends such a log). A file the log removed goes as a
   * retired file past its grace does.
   */
  private async sweepOrphans(): Promise<{ swept: number; keptForDelta: number }> {
    const { encoder } = this.options;
    const manifest = await readManifest(this.storage, this.dataset, encoder.format);
    // Without a manifest nothing is known to be live, so only temp files are certainly debris
    // (e.g. the first manifest's own temp file when a run was killed while writing it).
    const live = manifest === undefined ? undefined : new Set([...manifest.files, ...(manifest.retired ?? [])].map((f) => f.path));
    const temps: string[] = [];
    const orphans: { key: string; rel: string }[] = [];
    for (const key of await this.storage.list(`${this.dataset}/`)) {
      const rel = posix.relative(this.dataset, key);
      const base = posix.basename(rel);
      if (isTempFile(base)) temps.push(key);
      else if (live !== undefined && base.startsWith('part-') && base.endsWith(encoder.extension) && !live.has(rel)) orphans.push({ key, rel });
    }
    let keptForDelta = 0;
    if (orphans.length > 0 && (await hasDeltaLog(this.storage, this.dataset))) {
      const snapshot = await readDeltaSnapshot(this.storage, this.dataset);
      const named = (rel: string) => snapshot?.files.has(rel) === true;
      keptForDelta = orphans.filter((o) => named(o.rel)).length;
      orphans.splice(0, orphans.length, ...orphans.filter((o) => !named(o.rel)));
    }
    for (const key of [...temps, ...orphans.map((o) => o.key)]) await this.storage.delete(key);
    return { swept: temps.length + orphans.length, keptForDelta };
  }

  async close(): Promise<void> {
    this.buffers.clear();
    this.spills.clear();
    this.partitionStarts.clear();
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    await this.writer.close();
    // Spills and files never committed leave this machine's temp folder with the sink.
    await this.scratchFolder?.remove();
  }
}

/** Whether the run's lease on the lake is gone (false when it holds none: a local folder's lock). */
function leaseLost(ctx: RunContext | undefined): boolean {
  try {
    ctx?.lease?.assertHeld();
    return false;
  } catch {
    return true;
  }
}
