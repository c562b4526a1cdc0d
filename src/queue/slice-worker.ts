/**
 * The worker: takes slices (and schedule firings) off the queue and hands them to `runSlice` /
 * `expandSchedule`, which the command line supplies (they need the pipeline loader, the client
 * and the run loop).
 *
 * Redelivery: BullMQ holds each active job by a lock the worker renews every `stalledMs / 2`; a
 * worker that dies (SIGKILL, a lost host) stops renewing, and the stalled-job check (every
 * `stalledMs`, on any live worker) moves the job back to waiting. `maxStalledCount` 2: a slice is
 * passed on after its worker's first and second loss, and failed at the third (it may be what kills
 * them) rather than passed on for ever.
 *
 * Stop: `stop()` takes no new job and lets the running slices finish; past `graceMs` they are
 * aborted (their fetched rows are not committed) and put back to waiting for another worker, with
 * no attempt counted against them.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { repeatDamper } from '../core/repeat-damper.js';
import { QUEUE_NAME, QUEUE_PREFIX, type QueueJobData, type ScheduledRun } from './slice-queue.js';
import { sliceOfJobData, type Slice } from './slice.js';

export interface SliceOutcome {
  /** Requests the slice sent (taken off the queue's planned requests left). */
  readonly requests: number;
  readonly rows: number;
  /**
   * The daily quota ran out mid-slice: what was fetched is committed, and the slice waits this long
   * (until the reset) before it runs again. A delay, not an instant: the reset is on the command's
   * clock (which --clock may shift), the queue's delays on the machine's.
   */
  readonly quotaWaitMs?: number;
}

export interface SliceWorkerOptions {
  readonly connection: Redis;
  readonly concurrency: number;
  /** Lock duration and stalled-check interval of BullMQ (ms). */
  readonly stalledMs: number;
  runSlice(slice: Slice, signal: AbortSignal): Promise<SliceOutcome | 'aborted'>;
  expandSchedule(run: ScheduledRun): Promise<void>;
  /** Called once per slice moved to completed (by whichever worker held it), to update the ETA counter. */
  sliceDone?(slice: Slice): Promise<void>;
  /**
   * Whether an error of `runSlice` would come back on every attempt (a pipeline file or setting
   * that is wrong, a token the service does not know): the slice then fails at once instead of
   * being retried for minutes.
   */
  isPermanent?(error: unknown): boolean;
  /** A slice failed for good (permanent, or its last attempt): the error `runSlice` threw. */
  failedForGood?(sliceId: string, error: unknown): void;
  /**
   * Whether an error of `runSlice` or `expandSchedule` is this worker's, not the job's (its token
   * refused, its service settings wrong, the pipeline file not on this host): another worker could
   * run the job, so it goes back to the queue untouched
   * and `workerFault` is told, rather than the slice failing for good on every worker's behalf.
   */
  isWorkerFault?(error: unknown): boolean;
  workerFault?(error: unknown): void;
  /** `fields`: the pipeline and series of the job a line is about, when it is about one. */
  log?(line: string, fields?: Record<string, unknown>): void;
}

/** The pipeline (and series) a job is of, for its log lines: its id alone names neither. */
function jobFields(job: Job<QueueJobData> | undefined): Record<string, unknown> | undefined {
  const data = job?.data;
  if (data === undefined) return undefined;
  if (data.kind === 'schedule') return data.name !== undefined ? { pipeline: data.name } : undefined;
  const slice = sliceOfJobData((({ kind: _kind, ...stored }) => stored)(data));
  return { pipeline: slice.name, codes: slice.codes, interval: slice.interval, partition: slice.partition };
}

/** The error a slice's run threw, under BullMQ's wrapper for a permanent one. */
class PermanentSliceError extends UnrecoverableError {
  constructor(readonly original: unknown) {
    super(original instanceof Error ? original.message : String(original));
  }
}

export interface SliceWorker {
  readonly worker: Worker<QueueJobData>;
  /**
   * Graceful stop: no new slices; running ones finish, or after `graceMs` are put back. `queueGone`:
   * the queue's Redis is unreachable, so closing (which waits for it) is given `graceMs` more and
   * then left behind; the slices go back to the queue when their lock expires.
   */
  stop(graceMs: number, options?: { queueGone?: boolean }): Promise<void>;
}

/** Losses of its worker a slice is passed on after; the next one fails it. */
export const MAX_STALLED = 2;

/** BullMQ's reason for a job failed at a stall past `maxStalledCount` (moveStalledJobsToWait.lua). */
const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

export function startSliceWorker(options: SliceWorkerOptions): SliceWorker {
  const stopping = new AbortController();
  const processor = async (job: Job<QueueJobData>, token?: string): Promise<SliceOutcome | undefined> => {
    const data = job.data;
    let outcome: SliceOutcome | 'aborted' | undefined;
    try {
      if (data.kind === 'schedule') await options.expandSchedule(data);
      else {
        const { kind: _kind, ...stored } = data;
        outcome = await options.runSlice(sliceOfJobData(stored), stopping.signal);
      }
    } catch (error) {
      if (options.isWorkerFault?.(error)) {
        await job.moveToWait(token);
        options.workerFault?.(error);
        throw new WaitingError();
      }
      if (options.isPermanent?.(error)) throw new PermanentSliceError(error);
      throw error;
    }
    if (outcome === undefined) return undefined;
    if (outcome === 'aborted') {
      // Back to waiting, untouched: the next worker fetches it whole.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    if (outcome.quotaWaitMs !== undefined) {
      // Run again after the quota's reset (it re-fetches the slice; the merge makes that harmless).
      await job.moveToDelayed(Date.now() + outcome.quotaWaitMs, token);
      throw new DelayedError();
    }
    return outcome;
  };
  const worker = new Worker<QueueJobData>(QUEUE_NAME, processor, {
    connection: options.connection,
    prefix: QUEUE_PREFIX,
    concurrency: options.concurrency,
    lockDuration: options.stalledMs,
    stalledInterval: options.stalledMs,
    maxStalledCount: MAX_STALLED,
  });
  worker.on('failed', (job, error) => {
    const id = job?.id ?? '?';
    const attempts = job?.opts.attempts ?? 1;
    const permanent = error instanceof PermanentSliceError;
    // BullMQ stamps finishedOn only on a job it moved to failed (not on one it will retry).
    if (!permanent && job !== undefined && !job.finishedOn) {
      options.log?.(`slice ${id} failed (attempt ${job.attemptsMade} of ${attempts}, retried later): ${error.message}`, jobFields(job));
      return;
    }
    const why =
      error.message === STALLED_TOO_OFTEN
        ? `the worker running it was lost (killed, or stopped answering for --stalled-timeout) ${MAX_STALLED + 1} times; enqueue the same run again to retry it`
        : error.message;
    options.log?.(`slice ${id} failed for good (${permanent ? 'retrying cannot mend it' : `attempt ${job?.attemptsMade ?? '?'} of ${attempts}`}): ${why}`, jobFields(job));
    options.failedForGood?.(id, permanent ? error.original : error);
  });
  // BullMQ reports every reconnection attempt while Redis is away: one line a minute says as much.
  const damped = repeatDamper(() => Date.now());
  worker.on('error', (error) => {
    const line = damped(`queue error: ${error.message}`);
    if (line !== undefined) options.log?.(line);
  });
  // Counted off once BullMQ has moved the slice to completed, which only the holder of its lock
  // can: a worker that lost the lock (stalled, the slice redelivered) finishes it too, and counting
  // it off there took the same requests off twice.
  const counting = new Set<Promise<void>>();
  worker.on('completed', (job) => {
    if (job.data.kind === 'schedule' || options.sliceDone === undefined) return;
    const { kind: _kind, ...stored } = job.data;
    const done = options.sliceDone(sliceOfJobData(stored)).catch((error: unknown) => options.log?.(`queue error: the ETA's count of requests left missed slice ${job.id ?? '?'}: ${(error as Error).message}`));
    counting.add(done);
    void done.finally(() => counting.delete(done));
  });
  return {
    worker,
    async stop(graceMs, { queueGone = false } = {}) {
      const closing = worker.close();
      const timer = setTimeout(() => stopping.abort(), graceMs);
      try {
        if (!queueGone) {
          await closing;
          await Promise.all(counting);
        }
        else await Promise.race([closing.catch(() => undefined), delay(2 * graceMs, undefined, { ref: false })]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
