/**
 * NDJSON to a stream (stdout) or a file. A stream write resolves only once the stream has taken
 * every chunk of the batch (its write callbacks), which is also the backpressure. When the reader
 * goes away (EPIPE, e.g. `| head -3`) while rows are still to be written, write() throws
 * OutputClosedError with the count, so the run stops fetching and no checkpoint covers them; a
 * reader that leaves after everything was written changes nothing.
 * A file target is written to `<file>.tmp-<runId>` and renamed over the file at each commit.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { Batch, CommitReceipt, RunContext, Sink } from '../../core/component.js';
import { OutputClosedError, SinkError } from '../../core/errors.js';
import type { Dataset } from '../../core/records.js';
import { safeFileToken } from '../shared/partition-path.js';
import { rowToJson } from './row-json.js';

export type NdjsonTarget = { readonly kind: 'stream'; readonly stream: Writable } | { readonly kind: 'file'; readonly path: string };

const CLOSED_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ECONNRESET']);

export class NdjsonSink implements Sink<object> {
  private closedDownstream = false;
  private failure: unknown;
  private stream: Writable | undefined;
  private tmpPath: string | undefined;
  private rowsSinceCommit = 0;
  private committedOnce = false;
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

  private async open(ctx: RunContext): Promise<Writable> {
    if (this.stream) return this.stream;
    if (this.target.kind === 'stream') {
      this.stream = this.target.stream;
    } else {
      const tmp = `${this.target.path}.tmp-${safeFileToken(ctx.runId)}`;
      await mkdir(dirname(tmp), { recursive: true });
      // After a commit the file is live: continue from a copy so the next rename stays atomic.
      if (this.committedOnce) await copyFile(this.target.path, tmp);
      else await rm(tmp, { force: true });
      this.tmpPath = tmp;
      const file = createWriteStream(tmp, { flags: 'a' });
      await once(file, 'open');
      this.stream = file;
    }
    this.stream.on('error', this.onError);
    return this.stream;
  }

  private check(): void {
    if (this.failure !== undefined) {
      const where = this.target.kind === 'file' ? this.target.path : 'stream';
      throw new SinkError(`ndjson: cannot write ${this.dataset} to ${where}`, 'write', this.failure);
    }
  }

  private async push(stream: Writable, text: string): Promise<void> {
    if (!stream.write(text)) await this.drain(stream);
    this.check();
  }

  private drain(stream: Writable): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('close', done);
        stream.off('error', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
      stream.on('error', done);
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

  async write(batch: Batch<object>, ctx: RunContext): Promise<void> {
    this.check();
    if (batch.records.length === 0) return;
    const stream = await this.open(ctx);
    if (this.target.kind === 'file') {
      let text = '';
      for (const row of batch.records) {
        text += `${rowToJson(this.dataset, row)}\n`;
        if (text.length >= this.chunkBytes) {
          await this.push(stream, text);
          text = '';
        }
      }
      if (text.length > 0) await this.push(stream, text);
      this.rowsSinceCommit += batch.records.length;
      return;
    }
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
    if (this.target.kind === 'file' && this.stream && this.tmpPath) {
      const stream = this.stream;
      this.stream = undefined;
      stream.end();
      await once(stream, 'close');
      this.check();
      await rename(this.tmpPath, this.target.path);
      this.committedOnce = true;
      this.tmpPath = undefined;
      ctx.events.rows(this.dataset, 'written', rows);
      return { files: [{ path: this.target.path, rows, bytes: 0 }], rows };
    }
    ctx.events.rows(this.dataset, 'written', rows);
    return { files: [], rows };
  }

  async abort(_ctx?: RunContext): Promise<void> {
    this.rowsSinceCommit = 0;
    if (this.target.kind === 'file' && this.stream) {
      const stream = this.stream;
      this.stream = undefined;
      stream.destroy();
      if (this.tmpPath) await rm(this.tmpPath, { force: true });
      this.tmpPath = undefined;
    }
  }

  async close(): Promise<void> {
    const stream = this.stream;
    if (stream === undefined) return;
    if (this.target.kind === 'file') {
      await this.abort();
      return;
    }
    // stdout is not ours to end; keep the error listener so a late EPIPE stays quiet.
    this.stream = undefined;
  }
}
