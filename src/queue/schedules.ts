/**
 * Scheduled exports: BullMQ job schedulers with a cron pattern and a time zone. Each firing is a
 * `schedule` job; the worker that takes it enqueues that run's slices (so `since: 1d` means a day
 * before the firing). The next firings are computed with BullMQ's own rule from an injectable
 * `now`, so they can be shown (and tested) for any instant.
 */
import { defaultRepeatStrategy, type Queue } from 'bullmq';
import { SLICE_JOB_OPTIONS, type QueueJobData, type ScheduledRun } from './slice-queue.js';

export interface ScheduleSpec {
  /** The scheduler's id: upserting the same name replaces it. */
  readonly name: string;
  readonly cron: string;
  /** IANA zone the cron pattern is read in (default UTC). */
  readonly tz: string;
  readonly run: ScheduledRun;
}

export interface ScheduleInfo {
  readonly name: string;
  readonly cron: string;
  readonly tz: string;
  readonly pipeline: string;
  /** The file `enqueue` read, absolute (null for a schedule made by an earlier version). */
  readonly file: string | null;
  /** Next firings after `now`, ISO (UTC). */
  readonly next: string[];
  /**
   * A firing whose time has passed on this machine and that no worker has taken (ISO, else null):
   * BullMQ holds it until a worker runs, so it is not among `next`, which count on from now.
   */
  readonly overdue: string | null;
}

/** A firing this long past its time is not one a running worker is taking at this moment. */
const OVERDUE_AFTER_MS = 5_000;

/** The next `count` firings of `cron` in `tz` after `nowMs`. Throws on a pattern cron-parser refuses. */
export function nextFirings(cron: string, tz: string, nowMs: number, count = 3): number[] {
  const out: number[] = [];
  let at = nowMs;
  for (let i = 0; i < count; i++) {
    const next = defaultRepeatStrategy(at, { pattern: cron, tz });
    if (next === undefined) break;
    out.push(next);
    at = next;
  }
  return out;
}

export async function upsertSchedule(queue: Queue<QueueJobData>, spec: ScheduleSpec): Promise<void> {
  // A firing done is gone: `queue status` counts slices, and a daily schedule would otherwise add a
  // "completed" a day (kept as long as slices are). A failed firing stays, to be seen.
  await queue.upsertJobScheduler(
    spec.name,
    { pattern: spec.cron, tz: spec.tz },
    { name: 'schedule', data: { kind: 'schedule', ...spec.run }, opts: { removeOnComplete: true, removeOnFail: SLICE_JOB_OPTIONS.removeOnFail } },
  );
}

/** `nowMs`: the command's clock (--clock), for `next`; `machineMs`: the instant BullMQ's firings are due by. */
export async function listSchedules(queue: Queue<QueueJobData>, nowMs: number, machineMs = Date.now()): Promise<ScheduleInfo[]> {
  const out: ScheduleInfo[] = [];
  for (const s of await queue.getJobSchedulers(0, -1, true)) {
    const cron = s.pattern ?? '';
    const tz = s.tz ?? 'UTC';
    const data = s.template?.data as QueueJobData | undefined;
    out.push({
      name: s.key,
      cron,
      tz,
      pipeline: data?.kind === 'schedule' ? data.pipeline : '?',
      file: data?.kind === 'schedule' ? (data.pipelinePath ?? null) : null,
      next: cron ? nextFirings(cron, tz, nowMs).map((ms) => new Date(ms).toISOString()) : [],
      overdue: s.next !== undefined && s.next + OVERDUE_AFTER_MS < machineMs ? new Date(s.next).toISOString() : null,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export async function removeSchedule(queue: Queue<QueueJobData>, name: string): Promise<boolean> {
  return queue.removeJobScheduler(name);
}
