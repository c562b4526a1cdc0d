/**
 * The shapes every pipeline component shares: sources yield batches, transforms map them (pure,
 * with rejected records on the side), sinks stage them and make them visible only on commit.
 */
import type { Clock } from './clock.js';

/** Where a stream stands; saved only after the commit that covers it. Plain JSON. */
export interface Checkpoint {
  /** The stream key, e.g. `kline/BTCUSDT/1m` or `halt/nyse`. */
  readonly stream: string;
  /** Source-specific position (watermarks, page cursors ...). Must be JSON-serialisable. */
  readonly position: Readonly<Record<string, unknown>>;
}

export interface Batch<T> {
  /** The stream key the records belong to. */
  readonly stream: string;
  /** Increasing per stream within a run. */
  readonly seq: number;
  readonly records: readonly T[];
  /** The stream position once this batch (and every earlier one) is committed. */
  readonly checkpoint?: Checkpoint;
  /**
   * Epoch ms: no later batch of the source holds a row timed at or after this instant, so a sink
   * partitioned by time may finish the partitions that start there or later (a backward walk's
   * days, as soon as every series has passed them). A hint for speed only: a row that still comes
   * for a finished partition is merged at the commit like any overlap.
   */
  readonly settledFrom?: number;
}

/** A record a transform or sink refused, with a reason that names the field and value. */
export interface Rejected<T = unknown> {
  readonly record: T;
  readonly reason: string;
  /** Stable code, e.g. `QL_DECIMAL_OVERFLOW`. */
  readonly code: string;
  readonly field?: string;
  readonly value?: string;
  readonly stream: string;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Where components say what they do. Fields are the event's data (JSON-serialisable; an Error
 * goes under `err`). The optional members let hot paths skip building fields nobody will see and
 * let a layer add its own fields; src/core/log-helpers.ts covers loggers that lack them.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** False when a line at this level would be dropped. */
  isLevelEnabled?(level: LogLevel): boolean;
  /** A logger adding these fields to every line. */
  child?(fields: Record<string, unknown>): Logger;
}

/** Counts that feed progress bars, the run summary and the manifest. */
export interface RunEvents {
  /** One HTTP request sent; `stream` names the stream it served (as in the plan), when known. */
  request(endpoint: string, stream?: string): void;
  /**
   * `merged`: rows the sink took whose key the dataset already held (or an earlier row of the same
   * commit had): they replaced a row instead of adding one, so received = written + merged + rejected.
   */
  rows(dataset: string, kind: 'received' | 'written' | 'merged' | 'rejected', count: number): void;
  planned?(stream: string, requests: number): void;
  /**
   * `stream` is done for this run: everything it needed was sent and its last batch handed over.
   * Until then progress shows it running, also when it has sent all it planned (pages asked for
   * ahead, a request still to go again).
   */
  streamDone?(stream: string): void;
  note?(message: string): void;
  /**
   * Less was delivered than asked for, for a reason the run cannot mend (the service gave less):
   * noted like a note, and the run does not end as a plain success. `count`: how many series or
   * codes the message names (default 1), which is what `shortfalls` counts. `stream`: the stream
   * whose checkpoint moves past what was not delivered, so that no later run asks for it again:
   * once that checkpoint is committed, the shortfall is kept in the run record, and a run that
   * does not finish (killed, stopped) hands it to the next run, which says it and exits 4.
   */
  shortfall?(message: string, count?: number, stream?: string): void;
  /** Requests left in today's quota, when the service client knows it (goes into the run manifest). */
  quota?(remaining: number): void;
  /** The daily quota ran out and the source stopped short of its window (resumable after the reset). */
  stoppedAtQuota?(): void;
}

export interface RunContext {
  readonly runId: string;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly events: RunEvents;
  readonly clock: Clock;
  /** The lake's lease when the run holds one: a sink checks it between the steps of a commit (it throws once lost). */
  readonly lease?: { assertHeld(): void };
  /**
   * What a run records in the journal of the commit it hands this context to (its checkpoints once
   * the commit lands): a killed run's journal is finished by the next start, which reads it back.
   */
  readonly journalNote?: Readonly<Record<string, unknown>>;
}

export interface Source<T> {
  read(ctx: RunContext, from: ReadonlyMap<string, Checkpoint>): AsyncIterable<Batch<T>>;
}

export interface TransformResult<I, O> {
  readonly output: Batch<O>;
  readonly rejected: readonly Rejected<I>[];
}

export interface Transform<I, O> {
  apply(batch: Batch<I>, ctx: RunContext): TransformResult<I, O>;
}

export interface CommittedFile {
  /** Path relative to the output root, e.g. `kline/interval=1m/year=2026/date=2026-11-21/part-....parquet`. */
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
}

export interface CommitReceipt {
  /** The files made visible; a merged file's `rows` include the live rows it absorbed. */
  readonly files: readonly CommittedFile[];
  /** Rows this commit wrote (upserted), not counting live rows rewritten by a merge. */
  readonly rows: number;
  /**
   * Of the rows handed to write() since the last commit, those that added no row to the dataset:
   * their key was held already (a re-fetch, an overlap) or repeated within the commit. Absent
   * from a sink that cannot tell (a stream: every row it took is out).
   */
  readonly merged?: number;
}

export interface Sink<T> {
  /**
   * Rows leave the process as they are written (a pipe): nothing can be rolled back, and write()
   * resolves only once its rows are taken. When state is kept the run then commits after every
   * source batch, so a checkpoint never covers rows the reader did not take.
   */
  readonly streaming?: boolean;
  /**
   * Each commit replaces the sink's whole output with this run's rows alone (an NDJSON file kept
   * without state): the run commits once, at its end, so neither a reader during the run nor a
   * killed run's leftovers show a part of this run's window in place of the last complete one.
   */
  readonly wholeRun?: boolean;
  /** Called once at the start of a run: finish or roll back whatever a crashed run left half-done. */
  recover?(ctx: RunContext): Promise<void>;
  /**
   * Called before a run resumes from saved checkpoints: what they say is held but is gone (a file
   * deleted by hand), in words, or undefined. A run that resumed would write only what is new and
   * leave the rest missing for good.
   */
  missingHeld?(): Promise<string | undefined>;
  /**
   * Rows it cannot write as they are (a decimal wider than the sink's type) come back as rejected
   * records, handled like a transform's (onReject); the rest are written.
   */
  write(batch: Batch<T>, ctx: RunContext): Promise<void | readonly Rejected<T>[]>;
  /** Push buffered rows to staging (not visible). */
  flush(ctx: RunContext): Promise<void>;
  /** Make everything flushed visible atomically; after it resolves the data is durable. */
  commit(ctx: RunContext): Promise<CommitReceipt>;
  /** Drop everything staged and not committed. */
  abort(ctx: RunContext): Promise<void>;
  close(): Promise<void>;
}
