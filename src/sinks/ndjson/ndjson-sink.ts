/**
 * NDJSON to a stream (stdout) or a file. A stream write resolves only once the stream has taken
 * every chunk of the batch (its write callbacks), which is also the backpressure. When the reader
 * goes away (EPIPE, e.g. `| head -3`) while rows are still to be written, write() throws
 * OutputClosedError with the count, so the run stops fetching and no checkpoint covers them; a
 * reader that leaves after everything was written changes nothing.
 * A file target is a dataset: rows are held by key until commit, merged into the file's lines (a
 * row with a key already there replaces it) and the whole file is replaced by rename (replace-file.ts).
 * With `accumulate` the file's committed lines are the start, so every run adds to it; without, the
 * first commit of a run starts empty, so the file holds exactly this run's rows.
 */
import { access } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { stringifyExact } from '../../core/exact-json.js';
import type { Batch, CommitReceipt, RunContext, Sink } from '../../core/component.js';
import { ConfigError, EnvironmentError, OutputClosedError, SinkError } from '../../core/errors.js';
import type { Dataset } from '../../core/records.js';
import { STDOUT_FIX } from '../../core/stdout-fix.js';
import { MergedLines } from './merged-lines.js';
import { refuseUnwritableTarget, removeStaleTemps, replaceFile, tempPathOf } from './replace-file.js';
import { rowObject, rowToJson } from './row-json.js';

export type NdjsonTarget =
  | { readonly kind: 'stream'; readonly stream: Writable }
  /** `accumulate`: keep the rows earlier runs committed (default true). */
  /** `shownAs`: the path as the pipeline gives it, relative to the output folder (committed files name it). */
  | { readonly kind: 'file'; readonly path: string; readonly accumulate?: boolean; readonly shownAs?: string };

const CLOSED_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ECONNRESET']);

/** Streams given one listener that swallows errors after their sinks closed (an EPIPE once the reader left). */
const quieted = new WeakSet<Writable>();

function keepQuiet(stream: Writable): void {
  if (quieted.has(stream)) return;
  quieted.add(stream);
  stream.on('error', () => undefined);
}

/** A line of the file at the sink path that no run of its dataset wrote: the same file stops every run, so exit 2. */
function notNdjson(shown: string, line: number, problem: string): ConfigError {
  return new ConfigError(
    `ndjson: sink path ${shown}: line ${line} ${problem}: the file must hold only lines runs of its dataset wrote; fix or delete that line, or move the file away (each dataset in its own file: {dataset} in the path)`,
    {},
    undefined,
    // The data file is at fault, not the pipeline: the generic hint of a ConfigError would send the user there.
    `the pipeline is fine: edit the file at its sink path (line ${line}), or move it away, then run the same command again`,
  );
}

export class NdjsonSink implements Sink<object> {
  private closedDownstream = false;
  private failure: NodeJS.ErrnoException | undefined;
  private stream: Writable | undefined;
  private rowsSinceCommit = 0;
  /** A file target: the lines it holds once committed (loaded at the first commit), and the rows since. */
  private fileLines: MergedLines | undefined;
  private pendingLines: MergedLines | undefined;
  /** The file's lines as recover() read them, taken over by the first commit. */
  private startLines: MergedLines | undefined;
  private readonly onError = (error: NodeJS.ErrnoException) => {
    if (CLOSED_CODES.has(error.code ?? '')) this.closedDownstream = true;
    else this.failure ??= error;
  };

  constructor(
    private readonly dataset: Dataset,
    private readonly target: NdjsonTarget,
    private readonly chunkBytes = 65536,
  ) {}

  /** True once the reader closed the pipe. */
  get downstreamClosed(): boolean {
    return this.closedDownstream;
  }

  /** A stream's rows are gone once written: the run commits after each batch when it keeps state. */
  get streaming(): boolean {
    return this.target.kind === 'stream';
  }

  /** A file without state is rewritten with exactly this run's window: only its last commit may replace it. */
  get wholeRun(): boolean {
    return this.target.kind === 'file' && this.target.accumulate === false;
  }

  private open(): Writable {
    if (this.stream) return this.stream;
    if (this.target.kind !== 'stream') throw new SinkError('ndjson: a file target has no stream', 'write');
    this.stream = this.target.stream;
    this.stream.on('error', this.onError);
    return this.stream;
  }

  /**
   * What a killed run left beside the file: its temp files (the lock says no live run owns them).
   * And, before any request is spent, that the file can be written there at all.
   */
  async recover(_ctx?: RunContext): Promise<void> {
    if (this.target.kind !== 'file') return;
    const shown = this.target.shownAs ?? this.target.path;
    await refuseUnwritableTarget(this.target.path, shown);
    await removeStaleTemps(this.target.path);
    // Read now, not at the first commit: a file that is not NDJSON (a line put there by hand, a file
    // of another tool) would otherwise fail the run only after every row of its window was fetched.
    if (this.target.accumulate !== false) this.startLines = await MergedLines.read(this.dataset, this.target.path, (line, reason) => notNdjson(shown, line, reason));
  }

  /**
   * A file target that earlier commits wrote and someone removed: resuming would leave every row
   * before the checkpoints out of it. Every commit of a file run writes the file (empty when it
   * got no rows), so a checkpoint never exists without it.
   */
  async missingHeld(): Promise<string | undefined> {
    if (this.target.kind !== 'file') return undefined;
    try {
      await access(this.target.path);
      return undefined;
    } catch {
      return `${this.target.path} is missing`;
    }
  }

  private check(): void {
    if (this.failure === undefined) return;
    if (this.target.kind === 'file') throw new SinkError(`ndjson: cannot write ${this.dataset} to ${this.target.path}`, 'write', this.failure);
    // Not the output folder's disk: the file or device stdout was sent to (`> /dev/full`, a full disk).
    throw new EnvironmentError('QL_STDOUT_FAILED', `ndjson: cannot write ${this.dataset} to stdout: ${this.failure.message}`, 'stdout', STDOUT_FIX, {
      stage: 'write',
      cause: this.failure,
    });
  }

  /** One chunk to the stream; true once the stream took it, false if its reader had gone away. */
  private deliver(stream: Writable, text: string): Promise<boolean> {
    if (this.closedDownstream || stream.destroyed || stream.writableEnded) {
      this.closedDownstream = true;
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      const settle = (error: NodeJS.ErrnoException | null | undefined) => {
        stream.off('close', onClose);
        if (error) this.onError(error);
        resolve(!error && !this.closedDownstream);
      };
      // A destroyed stream may drop the callback of a write in flight; its close settles it.
      const onClose = () => {
        this.closedDownstream = true;
        settle(null);
      };
      stream.once('close', onClose);
      stream.write(text, settle);
    });
  }

  async write(batch: Batch<object>, _ctx?: RunContext): Promise<void> {
    this.check();
    if (batch.records.length === 0) return;
    if (this.target.kind === 'file') {
      const pending = (this.pendingLines ??= new MergedLines(this.dataset));
      for (const row of batch.records) {
        const obj = rowObject(this.dataset, row);
        pending.put(obj, stringifyExact(obj));
      }
      this.rowsSinceCommit += batch.records.length;
      return;
    }
    const stream = this.open();
    // Rows count as written only once the stream took their chunk; the first chunk it refuses
    // leaves that chunk and every later row of the batch unwritten.
    let text = '';
    let taken = 0;
    let inChunk = 0;
    const send = async (): Promise<void> => {
      if (!(await this.deliver(stream, text))) {
        this.check();
        throw new OutputClosedError('stdout', batch.records.length - taken);
      }
      taken += inChunk;
      text = '';
      inChunk = 0;
    };
    for (const row of batch.records) {
      text += `${rowToJson(this.dataset, row)}\n`;
      inChunk++;
      if (text.length >= this.chunkBytes) await send();
    }
    if (inChunk > 0) await send();
    this.rowsSinceCommit += batch.records.length;
  }

  async flush(_ctx?: RunContext): Promise<void> {
    this.check();
  }

  async commit(ctx: RunContext): Promise<CommitReceipt> {
    this.check();
    const rows = this.rowsSinceCommit;
    this.rowsSinceCommit = 0;
    if (this.target.kind === 'file') {
      const { path } = this.target;
      const pending = this.pendingLines ?? (await this.noRowsYet());
      this.pendingLines = undefined;
      if (pending === undefined) return { files: [], rows: 0 };
      // Loaded once a run: later commits of the run build on what the earlier ones wrote.
      const lines = (this.fileLines ??= this.target.accumulate === false ? new MergedLines(this.dataset) : (this.startLines ?? (await MergedLines.read(this.dataset, path))));
      this.startLines = undefined;
      const before = lines.size;
      lines.merge(pending);
      // A row whose key the file (or this commit) held already replaced a line instead of adding one.
      const merged = Math.max(0, rows - (lines.size - before));
      try {
        const bytes = await replaceFile(path, tempPathOf(path, ctx.runId), lines.values(), this.chunkBytes);
        ctx.events.rows(this.dataset, 'written', rows);
        return { files: [{ path: this.target.shownAs ?? path, rows, bytes }], rows, merged };
      } catch (error) {
        // The merged lines were never committed: the next commit reads the file again.
        this.fileLines = undefined;
        throw new SinkError(`ndjson: cannot write ${this.dataset} to ${path}`, 'commit', error);
      }
    }
    ctx.events.rows(this.dataset, 'written', rows);
    return { files: [], rows };
  }

  /**
   * Nothing to merge: an empty set of lines when the file does not exist yet (so the commit creates
   * it, and the checkpoints saved after it are never without their file; see missingHeld), else
   * undefined (the file stays as it is).
   */
  private async noRowsYet(): Promise<MergedLines | undefined> {
    if (this.fileLines !== undefined || (await this.missingHeld()) === undefined) return undefined;
    return new MergedLines(this.dataset);
  }

  /** A file's uncommitted rows are only in memory: dropping them is the whole abort. */
  async abort(_ctx?: RunContext): Promise<void> {
    this.rowsSinceCommit = 0;
    this.pendingLines = undefined;
  }

  async close(): Promise<void> {
    this.pendingLines = undefined;
    this.fileLines = undefined;
    this.startLines = undefined;
    // stdout is not ours to end. A late EPIPE must stay quiet, but one listener per stream does
    // that: a process that runs many sinks (a worker's slices) would otherwise pile them up.
    if (this.stream !== undefined) {
      keepQuiet(this.stream);
      this.stream.off('error', this.onError);
    }
    this.stream = undefined;
  }
}
