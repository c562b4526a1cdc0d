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
 *   into one new file and the old ones are retired. Several small disjoint new files of one
 *   partition are compacted into one when their rows fit maxBufferedRows: batch by batch, with no
 *   row objects (file-compaction.ts). The intent {add, remove, manifest} is written as a journal
 *   first and then rolled forward (commit-journal.ts).
 * - recover: rolls forward any journal a crashed run left, deletes stale staging and any part file
 *   the manifest does not list. It must run while this process holds the output (the runtime's lock).
 */
import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { RecordBatch, Table, type Data, type Schema } from 'apache-arrow';
import type { Batch, CommitReceipt, CommittedFile, Rejected, RunContext, Sink } from '../../core/component.js';
import type { DecimalType } from '../../core/decimal.js';
import { SinkError } from '../../core/errors.js';
import type { Dataset } from '../../core/records.js';
import { datasetSchema, SCHEMA_VERSION } from '../../core/schemas.js';
import type { ColumnBuilder } from '../columns/column-builder.js';
import type { DecimalCheck } from '../columns/decimal-misfit.js';
import { mergeFileMetadata, sameColumnTypes, SOURCE_ENDPOINT, unionRanges } from './file-compaction.js';
import { fileProvenance } from '../file-provenance.js';
import { addTime, countRow, formatSeries, SERIES_KEY, seriesOfRows, type SeriesMap, type SeriesStats } from '../series-stats.js';
import { removeStaleTempFiles } from '../../core/atomic-write.js';
import { LAKE_DIR, MANIFESTS_DIR, STAGING_DIR } from '../lake-paths.js';
import { pendingJournals, rollForward, writeJournal, type CommitJournal, type RollForwardHooks } from './commit-journal.js';
import { compareOrder, type DatasetSpec, type Order } from '../datasets/dataset-spec.js';
import { readManifest, type Manifest, type ManifestFile } from './manifest.js';
import { PACKAGE_VERSION } from '../package-version.js';
import { insideRoot, safeFileToken } from '../partition-path.js';
import { inThreadWriter, writeTable, type StagedFileWriter, type WrittenFile } from '../encode/staged-file-writer.js';
import type { TableEncoder } from '../encode/table-encoder.js';

export interface PartitionedSinkOptions<R> {
  readonly outputDir: string;
  readonly spec: DatasetSpec<R>;
  readonly encoder: TableEncoder;
  readonly decimal: DecimalType;
  readonly maxRowsPerFile: number;
  readonly maxBufferedRows: number;
  readonly maxBufferedBytes: number;
  /** Where staged files are encoded and written (default: on this thread with `encoder`); closed by close(). */
  readonly writer?: StagedFileWriter;
  /** Tests only: called after each roll-forward step (to simulate a crash). */
  readonly hooks?: RollForwardHooks;
}

type Ranges = Map<string, [Order, Order]>;

class PartitionBuffer<R> {
  /** Rows kept as objects when the dataset has no column builder. */
  rows: R[] = [];
  bytes = 0;
  readonly ranges: Ranges = new Map();
  /** Set when a row's key is not above every earlier key of its group: it may repeat one. */
  maybeDuplicates = false;
  private lastGroup: string | undefined;
  private lastRange: [Order, Order] | undefined;
  /** `quotelake.series` of the buffered rows (exact while no key repeats; a dedupe recounts). */
  readonly series: SeriesMap = new Map();
  private lastSeriesKey: string | undefined;
  private lastSeries: SeriesStats | undefined;

  constructor(readonly builder: ColumnBuilder<R> | undefined) {}

  get length(): number {
    return this.builder !== undefined ? this.builder.length : this.rows.length;
  }

  add(row: R, group: string, order: Order, bytes: number, series: string, time: number | null): void {
    if (this.builder !== undefined) this.builder.append(row);
    else this.rows.push(row);
    this.bytes += bytes;
    // Rows arrive in runs of one series: one map lookup per run, not per row.
    if (series === this.lastSeriesKey && this.lastSeries !== undefined) addTime(this.lastSeries, time);
    else {
      this.lastSeries = countRow(this.series, series, time);
      this.lastSeriesKey = series;
    }
    let range = group === this.lastGroup ? this.lastRange : this.ranges.get(group);
    if (range === undefined) {
      range = [order, order];
      this.ranges.set(group, range);
    } else if (compareOrder(order, range[1]) > 0) {
      range[1] = order;
    } else {
      this.maybeDuplicates = true;
      if (compareOrder(order, range[0]) < 0) range[0] = order;
    }
    this.lastGroup = group;
    this.lastRange = range;
  }
}

/** What a staged file is built from: its row count, Arrow children and file metadata. */
interface FileContent {
  readonly length: number;
  /** Handed to the writer, which may move their buffers to another thread. */
  columns(): Data[];
  /** The dataset's own keys (spec.metadata); provenance and series are added by stage(). */
  metadata(): Record<string, string>;
  readonly series: SeriesMap;
}

interface StagedFile {
  readonly partition: string;
  /** Relative to the output root. */
  readonly stagingPath: string;
  readonly finalPath: string;
  readonly rows: number;
  readonly ranges: Record<string, [Order, Order]>;
  /** The file's key-value metadata (kept for compaction). */
  readonly metadata: ReadonlyMap<string, string>;
  /** Set once the file is durable in staging (every file is, after settle()). */
  written?: WrittenFile;
}

function overlaps(a: Readonly<Record<string, readonly [Order, Order]>>, b: Readonly<Record<string, readonly [Order, Order]>>): boolean {
  for (const group of Object.keys(a)) {
    const x = a[group]!;
    const y = b[group];
    if (y !== undefined && compareOrder(x[0], y[1]) <= 0 && compareOrder(y[0], x[1]) <= 0) return true;
  }
  return false;
}

export class PartitionedSink<R> implements Sink<R> {
  private readonly schema: Schema;
  private readonly buffers = new Map<string, PartitionBuffer<R>>();
  private readonly staged = new Map<string, StagedFile[]>();
  private bufferedRows = 0;
  private bufferedBytes = 0;
  private fileSeq = 0;
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

  constructor(private readonly options: PartitionedSinkOptions<R>) {
    this.dataset = options.spec.dataset;
    this.decimalCheck = options.spec.decimalCheck?.(options.decimal);
    this.schema = datasetSchema(this.dataset, options.decimal);
    this.writer = options.writer ?? inThreadWriter(options.encoder, this.schema);
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
    for (const row of batch.records) {
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
      await this.flushPartition(largest);
    }
    return rejected;
  }

  async flush(_ctx?: RunContext): Promise<void> {
    for (const partition of [...this.buffers.keys()]) await this.flushPartition(partition);
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

  private async flushPartition(partition: string): Promise<void> {
    const buf = this.buffers.get(partition);
    if (buf === undefined) return;
    this.buffers.delete(partition);
    this.bufferedRows -= buf.length;
    this.bufferedBytes -= buf.bytes;
    const ranges = Object.fromEntries(buf.ranges);
    const builder = buf.builder;
    if (builder !== undefined && !buf.maybeDuplicates) {
      await this.stage(partition, { length: builder.length, columns: () => builder.columns(), metadata: () => builder.metadata(), series: buf.series }, ranges);
      return;
    }
    const all = builder !== undefined ? builder.rows() : buf.rows;
    const rows = buf.maybeDuplicates ? this.dedupe(all) : all;
    buf.rows = [];
    await this.stageRows(partition, rows, ranges);
  }

  /** `inherited`: keys taken over from the files a merge replaces (their source endpoints). */
  private stageRows(partition: string, rows: readonly R[], ranges: Record<string, [Order, Order]>, inherited?: Record<string, string>): Promise<void> {
    const { spec, decimal } = this.options;
    const series = seriesOfRows(rows, (r) => spec.seriesKey(r), (r) => spec.seriesTime(r));
    return this.stage(partition, { length: rows.length, columns: () => spec.columns(rows, decimal), metadata: () => ({ ...spec.metadata(rows), ...inherited }), series }, ranges);
  }

  /** The provenance keys of this run's files (file-provenance.ts). */
  private provenance(): Map<string, string> {
    return fileProvenance(this.dataset, this.runId ?? this.runToken ?? '');
  }

  /** Hand one file to the writer; it is durable once settle() resolves. */
  private async stage(partition: string, content: FileContent, ranges: Record<string, [Order, Order]>): Promise<void> {
    const { encoder, outputDir } = this.options;
    // Room first, so no more columns are built than the writer bounds.
    await this.writer.ready();
    this.throwIfFailed();
    const rows = content.length;
    const metadata = new Map<string, string>([...this.provenance(), ...Object.entries(content.metadata()), [SERIES_KEY, formatSeries(content.series)]]);
    const columns = content.columns();
    const file = this.newStagedFile(partition, rows, ranges, metadata);
    const done = this.writer.write({ path: insideRoot(outputDir, file.stagingPath), rows, columns, metadata }).then(
      (written) => {
        file.written = written;
      },
      (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.failure ??= new SinkError(`${encoder.format}: cannot stage ${rows} ${this.dataset} rows for ${partition}: ${why}`, 'write', error);
      },
    );
    this.inFlight.add(done);
    void done.then(() => this.inFlight.delete(done));
    // Let the event loop breathe (and the GC reclaim the WASM/IPC buffers) between files.
    await yieldToLoop();
  }

  /** Name the partition's next staged file and list it (it is durable once `written` is set). */
  private newStagedFile(partition: string, rows: number, ranges: Record<string, [Order, Order]>, metadata: ReadonlyMap<string, string>): StagedFile {
    const name = `part-${this.runToken}-${String(++this.fileSeq).padStart(5, '0')}${this.options.encoder.extension}`;
    const file: StagedFile = { partition, stagingPath: posix.join(this.stagingRoot, partition, name), finalPath: posix.join(this.dataset, partition, name), rows, ranges, metadata };
    const list = this.staged.get(partition);
    if (list) list.push(file);
    else this.staged.set(partition, [file]);
    return file;
  }

  /**
   * A partition's disjoint staged files → one staged file, batch by batch: there is nothing to
   * de-duplicate or sort, so no row objects (the row path of merge() costs about ten times the
   * time and memory). Encoded on this thread; commit has settled every file in flight.
   */
  private async compact(partition: string, staged: readonly StagedFile[]): Promise<void> {
    const { encoder, outputDir } = this.options;
    const batches: RecordBatch[] = [];
    for (const f of staged) {
      const table = encoder.decode(await readFile(insideRoot(outputDir, f.stagingPath)));
      // Files this run wrote have the dataset's schema; anything else takes the row path.
      if (!sameColumnTypes(table.schema, this.schema)) return this.merge(partition, [], staged);
      for (const batch of table.batches) batches.push(new RecordBatch(this.schema, batch.data));
    }
    const rows = staged.reduce((n, f) => n + f.rows, 0);
    const metadata = mergeFileMetadata(staged.map((f) => f.metadata), this.provenance());
    for (const f of staged) await rm(insideRoot(outputDir, f.stagingPath), { force: true });
    this.staged.set(partition, []);
    const file = this.newStagedFile(partition, rows, unionRanges(staged.map((f) => f.ranges)), metadata);
    file.written = await writeTable(insideRoot(outputDir, file.stagingPath), new Table(batches), metadata, encoder);
  }

  /** A file's rows and its key-value metadata (what the file's rows cannot say: their endpoints). */
  private async readRows(relative: string, metadata: Map<string, string>[]): Promise<R[]> {
    const bytes = await readFile(insideRoot(this.options.outputDir, relative));
    const table = this.options.encoder.decode(bytes);
    metadata.push(new Map(table.schema.metadata));
    return this.options.spec.fromTable(table);
  }

  /** Merge the given live and staged files of one partition into new staged file(s). */
  private async merge(partition: string, live: readonly ManifestFile[], staged: readonly StagedFile[]): Promise<void> {
    const { spec, maxRowsPerFile, outputDir } = this.options;
    const all: R[] = [];
    const metadata: Map<string, string>[] = [];
    for (const f of live) all.push(...(await this.readRows(posix.join(this.dataset, f.path), metadata)));
    // Staged files are durable here: commit() settles before it merges.
    for (const f of staged) all.push(...(await this.readRows(f.stagingPath, metadata)));
    // Rows read back no longer say which endpoint they came from: the files' metadata does.
    const endpoints = mergeFileMetadata(metadata, new Map()).get(SOURCE_ENDPOINT);
    const inherited = endpoints === undefined ? undefined : { [SOURCE_ENDPOINT]: endpoints };
    const rows = this.dedupe(all);
    rows.sort((a, b) => {
      const ga = spec.group(a);
      const gb = spec.group(b);
      return ga < gb ? -1 : ga > gb ? 1 : compareOrder(spec.order(a), spec.order(b));
    });
    for (const f of staged) await rm(insideRoot(outputDir, f.stagingPath), { force: true });
    this.staged.set(partition, []);
    for (let i = 0; i < rows.length; i += maxRowsPerFile) {
      const chunk = rows.slice(i, i + maxRowsPerFile);
      const ranges: Record<string, [Order, Order]> = {};
      for (const row of chunk) {
        const g = spec.group(row);
        const o = spec.order(row);
        const r = ranges[g];
        if (r === undefined) ranges[g] = [o, o];
        else {
          if (compareOrder(o, r[0]) < 0) r[0] = o;
          if (compareOrder(o, r[1]) > 0) r[1] = o;
        }
      }
      await this.stageRows(partition, chunk, ranges, inherited);
    }
  }

  async commit(ctx: RunContext): Promise<CommitReceipt> {
    await this.flush();
    if (this.staged.size === 0) return { files: [], rows: 0 };
    // The rows this run wrote, before merging with live files: what "rows written" means to a user.
    const ownRows = [...this.staged.values()].flat().reduce((n, f) => n + f.rows, 0);
    const { outputDir, encoder, spec } = this.options;
    const previous = await readManifest(outputDir, this.dataset, encoder.format);
    const liveByPartition = new Map<string, ManifestFile[]>();
    for (const f of previous?.files ?? []) {
      const p = posix.dirname(f.path);
      const list = liveByPartition.get(p);
      if (list) list.push(f);
      else liveByPartition.set(p, [f]);
    }
    const removed = new Set<string>();
    for (const [partition, files] of [...this.staged]) {
      const live = liveByPartition.get(partition) ?? [];
      const all: { ranges: Readonly<Record<string, readonly [Order, Order]>> }[] = [...live, ...files];
      let merge = spec.alwaysMerge === true ? all.length > 1 : false;
      for (let i = 0; i < all.length && !merge; i++) {
        for (let j = i + 1; j < all.length && !merge; j++) merge = overlaps(all[i]!.ranges, all[j]!.ranges);
      }
      if (!merge) {
        // Memory-bounded flushes can leave several small disjoint files in one partition: compact
        // them into one when that fits the same memory bound (live files stay untouched).
        const rows = files.reduce((n, f) => n + f.rows, 0);
        if (files.length > 1 && rows <= this.options.maxBufferedRows) await this.compact(partition, files);
        continue;
      }
      // Only live files that take part are rewritten; disjoint ones stay as they are.
      const touching = live.filter((f) => files.some((s) => overlaps(f.ranges, s.ranges)) || spec.alwaysMerge === true);
      await this.merge(partition, touching, files);
      for (const f of touching) removed.add(f.path);
    }
    // The journal lists only durable files.
    await this.settle();
    const added = [...this.staged.values()].flat();
    const manifestFiles: ManifestFile[] = (previous?.files ?? []).filter((f) => !removed.has(f.path));
    for (const f of added) {
      const { bytes, sha256 } = f.written!;
      manifestFiles.push({ path: posix.relative(this.dataset, f.finalPath), rows: f.rows, bytes, sha256, ranges: f.ranges });
    }
    const manifest: Manifest = {
      version: 1,
      dataset: this.dataset,
      format: encoder.format,
      schemaVersion: SCHEMA_VERSION,
      quotelakeVersion: PACKAGE_VERSION,
      updatedAt: new Date(ctx.clock.now()).toISOString(),
      files: manifestFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    };
    const journal: CommitJournal = {
      version: 1,
      runId: this.runToken!,
      dataset: this.dataset,
      format: encoder.format,
      add: added.map((f) => ({ from: f.stagingPath, to: f.finalPath })),
      remove: [...removed].map((p) => posix.join(this.dataset, p)),
      manifest,
    };
    try {
      await writeJournal(outputDir, journal);
      await rollForward(outputDir, journal, this.options.hooks);
    } catch (error) {
      throw error instanceof SinkError ? error : new SinkError(`${this.dataset}: commit failed`, 'commit', error);
    }
    this.staged.clear();
    await this.removeStaging();
    const files: CommittedFile[] = added.map((f) => ({ path: f.finalPath, rows: f.rows, bytes: f.written!.bytes }));
    ctx.events.rows(this.dataset, 'written', ownRows);
    return { files, rows: ownRows };
  }

  private async removeStaging(): Promise<void> {
    if (this.runToken === undefined) return;
    const { outputDir } = this.options;
    await rm(insideRoot(outputDir, this.stagingRoot), { recursive: true, force: true });
    await rmdir(insideRoot(outputDir, posix.join(STAGING_DIR, this.runToken))).catch(() => undefined);
    await rmdir(insideRoot(outputDir, STAGING_DIR)).catch(() => undefined);
    await rmdir(insideRoot(outputDir, LAKE_DIR)).catch(() => undefined);
  }

  async abort(_ctx?: RunContext): Promise<void> {
    this.buffers.clear();
    this.staged.clear();
    this.bufferedRows = 0;
    this.bufferedBytes = 0;
    // Nothing may still be writing into staging when it is removed below.
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    this.failure = undefined;
    if (this.runToken !== undefined) {
      // A commit whose journal is written is decided: finish it rather than strand it half-applied.
      const { outputDir, encoder } = this.options;
      const pending = (await pendingJournals(outputDir, this.dataset, encoder.format)).filter((j) => j.runId === this.runToken);
      for (const journal of pending) await rollForward(outputDir, journal);
    }
    await this.removeStaging();
  }

  async recover(_ctx?: RunContext): Promise<void> {
    const { outputDir, encoder } = this.options;
    for (const journal of await pendingJournals(outputDir, this.dataset, encoder.format)) {
      await rollForward(outputDir, journal);
    }
    const stagingRoot = join(outputDir, STAGING_DIR);
    const runs = await readdir(stagingRoot).catch(() => [] as string[]);
    for (const run of runs) {
      await rm(join(stagingRoot, run, `${this.dataset}-${encoder.format}`), { recursive: true, force: true });
      await rmdir(join(stagingRoot, run)).catch(() => undefined);
    }
    await rmdir(stagingRoot).catch(() => undefined);
    // A manifest's temp file whose writer was killed (we hold the output, so no writer is live).
    await removeStaleTempFiles(join(outputDir, MANIFESTS_DIR));
    await rmdir(join(outputDir, LAKE_DIR)).catch(() => undefined);
    await this.sweepOrphans();
  }

  /** Delete part files (and temp files) in the dataset tree that the manifest does not list. */
  private async sweepOrphans(): Promise<void> {
    const { outputDir, encoder } = this.options;
    const manifest = await readManifest(outputDir, this.dataset, encoder.format);
    // Without a manifest nothing is known to be live, so only temp files are certainly debris
    // (e.g. the first manifest's own temp file when a run was killed while writing it).
    const live = manifest === undefined ? undefined : new Set(manifest.files.map((f) => f.path));
    const root = join(outputDir, this.dataset);
    const entries = await readdir(root, { recursive: true }).catch(() => [] as string[]);
    for (const entry of entries) {
      const rel = entry.split('\\').join('/');
      const base = posix.basename(rel);
      const orphanPart = live !== undefined && base.startsWith('part-') && base.endsWith(encoder.extension) && !live.has(rel);
      const tmp = base.includes('.tmp-');
      if (orphanPart || tmp) await rm(join(root, entry), { force: true });
    }
  }

  async close(): Promise<void> {
    this.buffers.clear();
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    await this.writer.close();
  }
}
