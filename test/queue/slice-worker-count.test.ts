/**
 * The queue's count of requests left (the ETA's) takes a slice off once, when it is moved to
 * completed: a worker whose lock was lost (stalled, the slice redelivered to another) finishes its
 * copy too, and must not count it off a second time. A real Redis on loopback, two BullMQ workers.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueSlices } from '../../src/queue/enqueue-slices.js';
import { addRequestsLeft } from '../../src/queue/requests-left.js';
import type { Slice } from '../../src/queue/slice.js';
import { QUEUE_NAME, QUEUE_PREFIX, sliceQueue } from '../../src/queue/slice-queue.js';
import { startSliceWorker, type SliceWorker, type SliceWorkerOptions } from '../../src/queue/slice-worker.js';
import { useRedisServer } from '../helpers/redis-server.js';

const KEY = `${QUEUE_PREFIX}:${QUEUE_NAME}:requests-left`;
const SLICE: Slice = { pipeline: 'p.yaml', name: 'p', codes: ['BTCUSDT'], interval: '1m', fromMs: 0, untilMs: 59_940_000, partition: 'interval=1m/year=1970/date=1970-01-01', requests: 7, output: '/lake' };

describe('requests left after a redelivered slice', () => {
  const server = useRedisServer();
  const connections: Redis[] = [];
  const workers: SliceWorker[] = [];
  const connect = () => {
    const c = new Redis(server().url, { maxRetriesPerRequest: null });
    connections.push(c);
    return c;
  };
  afterAll(async () => {
    for (const w of workers) await w.stop(1000);
    for (const c of connections) c.disconnect();
  });

  it('are counted off once, by the worker that completed it', async () => {
    const redis = connect();
    const queue = sliceQueue(connect());
    await enqueueSlices(queue, redis, [SLICE]);
    expect(await redis.get(KEY)).toBe('7');

    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let startedA!: () => void;
    const aStarted = new Promise<void>((r) => (startedA = r));
    const lines: string[] = [];
    const common = (log: (l: string) => void): Omit<SliceWorkerOptions, 'runSlice' | 'connection'> => ({
      concurrency: 1,
      stalledMs: 1000,
      expandSchedule: async () => undefined,
      sliceDone: (s) => addRequestsLeft(redis, -s.requests),
      log,
    });
    const a = startSliceWorker({
      ...common((l) => lines.push(l)),
      connection: connect(),
      runSlice: async () => {
        startedA();
        await released;
        return { requests: 7, rows: 1 };
      },
    });
    workers.push(a);
    await aStarted;
    // A's lock lost (a pause longer than its lock, a partition): the stalled check hands the slice on.
    const [job] = await queue.getJobs(['active']);
    await redis.del(`${QUEUE_PREFIX}:${QUEUE_NAME}:${job!.id!}:lock`);
    const b = startSliceWorker({ ...common(() => undefined), connection: connect(), runSlice: async () => ({ requests: 7, rows: 1 }) });
    workers.push(b);
    while ((await queue.getJobState(job!.id!)) !== 'completed') await new Promise((r) => setTimeout(r, 100));
    // A finishes its copy now; BullMQ refuses it the completion (it holds no lock).
    release();
    while (!lines.some((l) => /Missing lock/.test(l))) await new Promise((r) => setTimeout(r, 100));
    await a.stop(1000);
    await b.stop(1000);
    expect(await redis.get(KEY)).toBe('0');
    await queue.close();
  }, 30_000);
});
