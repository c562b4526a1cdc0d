/**
 * Failed slices that slices enqueued now cover: the same pipeline, interval, partition and lake,
 * each of their codes over at least their range. Without `--until` the newest partition's slice
 * ends at "now", so enqueueing the run again (or a schedule's next firing) cuts that slice with a
 * later end, and so another id: the failed one would never be retried, yet `queue status` would
 * count it (and its requests) as not done for its 30 days and tell to enqueue again, which cannot
 * clear it. It is removed instead, its planned requests taken off the ETA.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { addRequestsLeft } from './requests-left.js';
import type { QueueJobData } from './slice-queue.js';
import { sliceJobId, sliceOfJobData, type Slice } from './slice.js';

const PAGE = 1000;

function place(s: Pick<Slice, 'name' | 'interval' | 'partition' | 'output' | 'format'>): string {
  return JSON.stringify([s.name, s.interval, s.partition, s.output ?? '', s.format ?? '']);
}

/** Removes the failed slices that `slices` (just enqueued) cover; returns how many. */
export async function dropSupersededFailures(queue: Queue<QueueJobData>, redis: Redis, slices: readonly Slice[]): Promise<number> {
  if (slices.length === 0) return 0;
  const ids = new Set(slices.map(sliceJobId));
  const byPlace = new Map<string, Slice[]>();
  for (const s of slices) byPlace.set(place(s), [...(byPlace.get(place(s)) ?? []), s]);
  const covered: { id: string; requests: number }[] = [];
  // Found first, removed after: removing while paging would shift the pages.
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getJobs(['failed'], start, start + PAGE - 1, true);
    for (const job of page) {
      if (job.id === undefined || ids.has(job.id) || job.data.kind !== 'slice') continue;
      const old = sliceOfJobData(job.data);
      const over = byPlace.get(place(old)) ?? [];
      const coveredWhole = old.codes.length > 0 && old.codes.every((code) => over.some((s) => s.codes.includes(code) && s.fromMs <= old.fromMs && s.untilMs >= old.untilMs));
      if (coveredWhole) covered.push({ id: job.id, requests: old.requests });
    }
    if (page.length < PAGE) break;
  }
  let removed = 0;
  let requests = 0;
  for (const job of covered) {
    // 0: gone meanwhile (another enqueuer removed or retried it).
    if ((await queue.remove(job.id)) === 1) {
      removed++;
      requests += job.requests;
    }
  }
  await addRequestsLeft(redis, -requests);
  return removed;
}
