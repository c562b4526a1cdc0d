/**
 * Where a staged file's columns become durable bytes: on the calling thread (this module), or in
 * worker threads (encode-pool.ts). Either way the file is encoded, written and fsynced at
 * `job.path`, and its byte length and sha256 come back for the manifest.
 */
import { createHash } from 'node:crypto';
import { makeData, RecordBatch, Struct, Table, type Data, type Schema } from 'apache-arrow';
import { writeDurable } from '../../core/atomic-write.js';
import { sliceStretches } from '../columns/row-stretches.js';
import { InFlightLimit } from './in-flight-limit.js';
import type { TableEncoder } from './table-encoder.js';

export interface FileJob {
  /** Absolute path of the staged file. */
  readonly path: string;
  readonly rows: number;
  /**
   * The Arrow children of the dataset schema, in schema order. Handed over: a writer may move their
   * buffers to another thread, so the caller must not touch them, nor what shares their buffers.
   */
  readonly columns: Data[];
  /**
   * Which rows of `columns` the file holds, in file order, as `[first row, count]` pairs
   * (columns/row-stretches.ts); absent: every row, as it is. `rows` is their sum.
   */
  readonly stretches?: Int32Array;
  readonly metadata: ReadonlyMap<string, string>;
}

export interface WrittenFile {
  readonly bytes: number;
  readonly sha256: string;
}

export interface StagedFileWriter {
  /** Start any thread the writer needs ahead of the first file, so its start-up overlaps parsing. */
  warm(): void;
  /** Resolves when a job may be submitted without passing the writer's bound on files in flight. */
  ready(): Promise<void>;
  /** Resolves once the file is durable at `job.path`. */
  write(job: FileJob): Promise<WrittenFile>;
  /** Stops any thread the writer started (a later write starts it again). */
  close(): Promise<void>;
}

/** Columns → table (their stretches in order, when given) → encoded bytes → durable file; the body of every writer. */
export async function encodeAndWrite(job: FileJob, encoder: TableEncoder, schema: Schema): Promise<WrittenFile> {
  const type = new Struct(schema.fields);
  const batches = sliceStretches(job.columns, job.stretches).map((children) => new RecordBatch(schema, makeData({ type, length: children[0]?.length ?? job.rows, nullCount: 0, children })));
  const rows = batches.reduce((n, b) => n + b.numRows, 0);
  if (rows !== job.rows) throw new Error(`a staged file of ${job.rows} rows was given ${rows}`);
  return writeTable(job.path, new Table(schema, batches), job.metadata, encoder);
}

/** A table → encoded bytes → durable file at `path`, with its byte length and sha256. */
export async function writeTable(path: string, table: Table, metadata: ReadonlyMap<string, string>, encoder: TableEncoder): Promise<WrittenFile> {
  const bytes = encoder.encode(table, metadata);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await writeDurable(path, bytes);
  return { bytes: bytes.length, sha256 };
}

/**
 * Encodes on the calling thread (`write` returns once the bytes exist); one file's write and
 * fsync may overlap the building of the next.
 */
export function inThreadWriter(encoder: TableEncoder, schema: Schema): StagedFileWriter {
  const limit = new InFlightLimit(1);
  return {
    warm: () => undefined,
    ready: () => limit.ready(),
    write: (job) => limit.track(encodeAndWrite(job, encoder, schema)),
    close: async () => undefined,
  };
}
