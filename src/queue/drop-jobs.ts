/**
 * Taking work off the queue (`quotelake queue drop`): the slices of one pipeline (or of all) that
 * wait (waiting, or delayed by a retry's backoff or the daily quota) or failed, the failed firings
 * of its schedules, and the schedules that would queue more. Found first, to be shown and
 * confirmed; then dropped one by one with BullMQ's own removal, which refuses a job a worker took
 * in between (it runs to its end). Each slice dropped takes its planned requests off the ETA.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { addRequestsLeft } from './requests-left.js';
import type { QueueJobData } from './slice-queue.js';

export interface DropSelection {
  /** The pipeline's own name; undefined: every pipeline's. */
  readonly pipeline?: string | undefined;
  readonly waiting: boolean;
  readonly failed: boolean;
  readonly schedules: boolean;
}

interface FoundJob {
  readonly id: string;
  readonly requests: number;
}

export interface DropPlan {
  /** Slices waiting or delayed. */
  readonly waiting: readonly FoundJob[];
  /** Failed slices and failed schedule firings. */
  readonly failed: readonly FoundJob[];
  readonly schedules: readonly { readonly name: string; readonly cron: string; readonly tz: string }[];
  /** Firings of those schedules already due, not yet taken: they go with their schedule. */
  readonly firings: readonly FoundJob[];
  /** Slices of the selection being run now: never dropped, they finish. */
  readonly active: number;
}

export interface DropResult {
  readonly waiting: number;
  readonly failed: number;
  readonly schedules: readonly string[];
  /** Planned requests taken off the ETA's count. */
  readonly requests: number;
  /** Found, then taken by a worker before they could be dropped: they run. */
  readonly takenMeanwhile: number;
}

const PAGE = 1000;

/** The pipeline a job or schedule is for: a slice's name; a schedule's name, or (before it carried one) its scheduler's key. */
function pipelineOf(data: QueueJobData | undefined, schedulerKey: string | undefined): string | undefined {
  if (data?.kind === 'slice') return data.name;
  return data?.name ?? schedulerKey;
}

async function jobsIn(queue: Queue<QueueJobData>, states: ('waiting' | 'prioritized' | 'delayed' | 'failed' | 'active')[], wanted: (data: QueueJobData, schedulerKey: string | undefined) => boolean): Promise<FoundJob[]> {
  const out: FoundJob[] = [];
  for (const state of states) {
    for (let start = 0; ; start += PAGE) {
      const page = await queue.getJobs([state], start, start + PAGE - 1, true);
      for (const job of page) {
        if (job.id === undefined || !wanted(job.data, job.repeatJobKey)) continue;
        out.push({ id: job.id, requests: job.data.kind === 'slice' ? job.data.requests : 0 });
      }
      if (page.length < PAGE) break;
    }
  }
  return out;
}

export async function findDroppable(queue: Queue<QueueJobData>, selection: DropSelection): Promise<DropPlan> {
  const ours = (data: QueueJobData, key: string | undefined) => selection.pipeline === undefined || pipelineOf(data, key) === selection.pipeline;
  // A schedule's next firing waits among the delayed jobs: it goes with its schedule, never alone.
  const slices = (data: QueueJobData, key: string | undefined) => data.kind === 'slice' && ours(data, key);
  const schedules = [];
  if (selection.schedules) {
    for (const s of await queue.getJobSchedulers(0, -1, true)) {
      if (selection.pipeline === undefined || pipelineOf(s.template?.data as QueueJobData | undefined, s.key) === selection.pipeline) schedules.push({ name: s.key, cron: s.pattern ?? '', tz: s.tz ?? 'UTC' });
    }
  }
  const names = new Set(schedules.map((s) => s.name));
  const due = (data: QueueJobData, key: string | undefined) => data.kind === 'schedule' && key !== undefined && names.has(key);
  return {
    firings: names.size > 0 ? await jobsIn(queue, ['waiting', 'prioritized'], due) : [],
    waiting: selection.waiting ? await jobsIn(queue, ['waiting', 'prioritized', 'delayed'], slices) : [],
    failed: selection.failed ? await jobsIn(queue, ['failed'], ours) : [],
    schedules,
    active: (await jobsIn(queue, ['active'], slices)).length,
  };
}

/** Drops what `findDroppable` found; a job gone or taken since is left as it is. */
export async function dropFound(queue: Queue<QueueJobData>, redis: Redis, plan: DropPlan): Promise<DropResult> {
  const schedules: string[] = [];
  // Schedules first: none fires into the queue while its slices are being dropped.
  for (const s of plan.schedules) if (await queue.removeJobScheduler(s.name)) schedules.push(s.name);
  let requests = 0;
  let takenMeanwhile = 0;
  const drop = async (jobs: readonly FoundJob[]): Promise<number> => {
    let dropped = 0;
    for (const job of jobs) {
      // 1 removed; 0 locked by a worker that took it since (or already gone: then it is no longer there to drop).
      if ((await queue.remove(job.id)) === 1) {
        dropped++;
        requests += job.requests;
      } else if ((await queue.getJobState(job.id)) === 'active') takenMeanwhile++;
    }
    return dropped;
  };
  await drop(plan.firings);
  const waiting = await drop(plan.waiting);
  const failed = await drop(plan.failed);
  await addRequestsLeft(redis, -requests);
  return { waiting, failed, schedules, requests, takenMeanwhile };
}

/** The pipeline names on the queue (slices waiting, running or failed, and schedules): for a name that matched nothing. */
export async function pipelinesQueued(queue: Queue<QueueJobData>): Promise<string[]> {
  const names = new Set<string>();
  for (const s of await queue.getJobSchedulers(0, -1, true)) {
    const name = pipelineOf(s.template?.data as QueueJobData | undefined, s.key);
    if (name !== undefined) names.add(name);
  }
  // Read for their names only: none is kept.
  await jobsIn(queue, ['waiting', 'prioritized', 'delayed', 'failed', 'active'], (data, key) => {
    const name = pipelineOf(data, key);
    if (name !== undefined) names.add(name);
    return false;
  });
  return [...names].sort();
}
