/**
 * A StagedFileWriter whose files are encoded, written and hashed in worker threads, so the calling
 * thread goes on parsing meanwhile. Column buffers are moved to the worker, not copied
 * (column-transfer.ts); only the byte length and sha256 come back.
 *
 * - Bounded: at most `jobsPerWorker` files per worker are in flight; `ready()` waits for room, so a
 *   fast producer cannot pile up buffers.
 * - Workers start as files wait for them: the first at warm() or on the first write (loading
 *   parquet-wasm takes a few hundred ms), another only when a file arrives while every started one
 *   is busy, so `workers` is a ceiling, not a price every run pays. Workers are unref'd while idle
 *   (an idle pool never keeps the process alive) and stop at close().
 * - A worker that dies fails its jobs (never leaves them pending) and is replaced on the next write.
 */
import { Worker } from 'node:worker_threads';
import { packColumns } from './column-transfer.js';
import type { EncodeReply, EncodeRequest } from './encode-messages.js';
import { InFlightLimit } from './in-flight-limit.js';
import type { FileJob, StagedFileWriter, WrittenFile } from './staged-file-writer.js';

export interface EncodePoolOptions {
  /** The worker module: compiled JavaScript (see compiled-url.ts). */
  readonly url: URL;
  readonly workers: number;
  /** Files in flight per worker: one being encoded, the others waiting (default 2). */
  readonly jobsPerWorker?: number;
}

interface Job {
  resolve(file: WrittenFile): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  readonly jobs: Map<number, Job>;
  dead: boolean;
}

export class EncodePool implements StagedFileWriter {
  private readonly slots: (Slot | undefined)[];
  private readonly limit: InFlightLimit;
  private nextId = 0;

  constructor(private readonly options: EncodePoolOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) throw new RangeError(`workers must be a positive integer, got ${options.workers}`);
    this.slots = new Array<Slot | undefined>(options.workers).fill(undefined);
    this.limit = new InFlightLimit(options.workers * (options.jobsPerWorker ?? 2));
  }

  /** Starts the first worker: the one every file needs; the others start when files queue up. */
  warm(): void {
    this.live(0);
  }

  /** Workers running now (at most `workers`). */
  get started(): number {
    return this.slots.filter((s) => s !== undefined && !s.dead).length;
  }

  ready(): Promise<void> {
    return this.limit.ready();
  }

  /** `encoder`: which encoder the worker uses for this file, when the workers serve several. */
  write(job: FileJob, encoder?: unknown): Promise<WrittenFile> {
    return this.limit.track(this.post(job, encoder));
  }

  private post(job: FileJob, encoder: unknown): Promise<WrittenFile> {
    return new Promise<WrittenFile>((resolve, reject) => {
      const slot = this.leastBusy();
      const id = ++this.nextId;
      try {
        const { columns, transfer } = packColumns(job.columns);
        const request: EncodeRequest = { id, path: job.path, rows: job.rows, columns, ...(job.stretches && { stretches: job.stretches }), metadata: [...job.metadata], encoder };
        slot.worker.postMessage(request, transfer);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      slot.jobs.set(id, { resolve, reject });
      // Busy workers keep the process alive (the caller awaits them); idle ones must not.
      if (slot.jobs.size === 1) slot.worker.ref();
    });
  }

  /** An idle running worker; else a new one while the ceiling allows; else the least busy. */
  private leastBusy(): Slot {
    let best: Slot | undefined;
    let vacant: number | undefined;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (slot === undefined || slot.dead) {
        vacant ??= i;
        continue;
      }
      if (slot.jobs.size === 0) return slot;
      if (best === undefined || slot.jobs.size < best.jobs.size) best = slot;
    }
    return vacant !== undefined ? this.live(vacant) : best!;
  }

  /** The worker of slot i, started (again) if it is not running. */
  private live(i: number): Slot {
    let slot = this.slots[i];
    if (slot === undefined || slot.dead) slot = this.slots[i] = this.spawn();
    return slot;
  }

  private spawn(): Slot {
    // The worker is plain JavaScript: the parent's node flags (a loader, `--input-type`, ...) are not its own.
    const worker = new Worker(this.options.url, { execArgv: [] });
    const slot: Slot = { worker, jobs: new Map(), dead: false };
    const settle = (id: number) => {
      const job = slot.jobs.get(id);
      slot.jobs.delete(id);
      if (slot.jobs.size === 0) worker.unref();
      return job;
    };
    const failAll = (error: Error) => {
      slot.dead = true;
      for (const id of [...slot.jobs.keys()]) settle(id)?.reject(error);
    };
    worker.on('message', (reply: EncodeReply) => {
      const job = settle(reply.id);
      if (reply.error !== undefined) job?.reject(Object.assign(new Error(reply.error), reply.errno ?? {}));
      else job?.resolve({ bytes: reply.bytes, sha256: reply.sha256 });
    });
    worker.on('error', (error) => failAll(new Error(`encode worker failed: ${error.message}`, { cause: error })));
    worker.on('messageerror', (error) => {
      failAll(new Error(`encode worker sent an unreadable reply: ${error.message}`, { cause: error }));
      void worker.terminate();
    });
    worker.on('exit', (code) => failAll(new Error(`encode worker stopped (exit code ${code})`)));
    // After the listeners: Node refs a worker again when its first 'message' listener is added, so
    // an unref() before it left a warmed, idle worker keeping the process alive.
    worker.unref();
    return slot;
  }

  async close(): Promise<void> {
    const live = this.slots.filter((s): s is Slot => s !== undefined && !s.dead);
    this.slots.fill(undefined);
    await Promise.all(live.map((s) => s.worker.terminate()));
  }
}
