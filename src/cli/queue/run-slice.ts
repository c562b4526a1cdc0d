/**
 * One slice, through the run loop of `quotelake run` in two steps:
 * 1. fetch: the pipeline's source and transforms restricted to the slice's series and range, into
 *    memory (a private output folder for the run's own bookkeeping, removed after). Slices of a
 *    worker, and of every worker, fetch side by side.
 * 2. commit: those rows through the pipeline's own sink into the shared lake, as a run commits
 *    (the lake's output lock, recovery, journal, manifest, upsert by key), holding the lake lock
 *    so one committer at a time writes the lake.
 * A slice stopped during step 1 commits nothing and goes back to the queue whole; once step 2
 * starts it runs to its end (a commit is short, and a kill inside it is recovered by the next).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.js';
import type { Logger, Rejected } from '../../core/component.js';
import type { KlineRow } from '../../core/records.js';
import type { Registry } from '../../config/pipeline-schema.js';
import { withLakeLock } from '../../queue/lake-lock.js';
import type { Slice } from '../../queue/slice.js';
import type { SliceOutcome } from '../../queue/slice-worker.js';
import { createRunEvents } from '../../runtime/run-events.js';
import { runPipeline, type RejectedOutput } from '../../runtime/run-pipeline.js';
import { RejectedWriter } from '../../lake/rejected-writer.js';
import { klineStream } from '../../sources/shared/kline-records.js';
import type { PipelineJob } from '../pipeline-job.js';
import { QuotaWatchingClient } from '../quota-watch.js';
import type { ServiceClient } from '../../api/index.js';
import { CAPTURE_SINK, captureSink, ROWS_SOURCE, rowsSource } from './slice-components.js';

export interface SliceDeps {
  readonly registry: Registry;
  /** The worker's client for the slice's token and plan (shared by its slices: one limiter). */
  readonly client: ServiceClient;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly redis: Redis;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The lake's identity for its lock: the same folder (or bucket URL) from any cwd. */
export function lakeKey(outputDir: string): string {
  const where = /^[a-z][a-z0-9+.-]*:\/\//i.test(outputDir) ? outputDir : resolve(outputDir);
  return createHash('sha256').update(where).digest('hex').slice(0, 32);
}

/** The fetch's diverted records, kept until the commit; `into` writes them with its first commit. */
function divertedRecords() {
  const held: { dataset: string; records: Rejected[] }[] = [];
  let pending: typeof held = [];
  const collector: RejectedOutput = {
    write: async (dataset, records) => {
      pending.push({ dataset, records: [...records] });
    },
    commit: async () => {
      held.push(...pending);
      pending = [];
      return [];
    },
    abort: async () => {
      pending = [];
    },
  };
  const into = (real: RejectedWriter): RejectedOutput => ({
    recover: (ctx) => real.recover(ctx),
    write: (dataset, records, ctx) => real.write(dataset, records, ctx),
    commit: async (ctx) => {
      for (const h of held.splice(0)) await real.write(h.dataset, h.records, ctx);
      return real.commit(ctx);
    },
    abort: (ctx) => real.abort(ctx),
  });
  return { collector, held, into };
}

export async function runSlice(job: PipelineJob, slice: Slice, deps: SliceDeps, signal: AbortSignal): Promise<SliceOutcome | 'aborted'> {
  const { pipeline } = job;
  const { outputDir, stateDir } = job.resolved.settings;
  const rows: KlineRow[] = [];
  const diverted = divertedRecords();
  const events = createRunEvents();
  // Per slice: it remembers a quota error raised by this slice's requests only.
  const client = new QuotaWatchingClient(deps.client);
  const scratch = await mkdtemp(join(tmpdir(), 'quotelake-slice-'));
  try {
    const fetched = await runPipeline(
      {
        ...pipeline,
        source: { ...pipeline.source, codes: [slice.code], intervals: [slice.interval], since: iso(slice.fromMs), until: iso(slice.untilMs) },
        sink: { type: CAPTURE_SINK },
        options: { ...pipeline.options, outputDir: scratch, stateDir: join(scratch, '.state') },
      },
      {
        registry: [...deps.registry, captureSink(rows)],
        outputDir: scratch,
        stateDir: join(scratch, '.state'),
        client,
        signal,
        logger: deps.logger,
        events,
        clock: deps.clock,
        // Diverted records wait in memory too, and go to the lake's _rejected/ with the slice's commit.
        createRejectedWriter: () => diverted.collector,
      },
    );
    if (fetched.status === 'aborted') return 'aborted';
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const requests = Object.values(events.snapshot().requests).reduce((a, b) => a + b, 0);
  await withLakeLock(deps.redis, lakeKey(outputDir), () =>
    runPipeline(
      { ...pipeline, source: { type: ROWS_SOURCE }, transforms: [] },
      // Its own signal: a commit, once begun, ends (a stop waits for it).
      {
        registry: [...deps.registry, rowsSource(rows, klineStream(slice.code, slice.interval), diverted.held.length > 0)],
        outputDir,
        stateDir,
        logger: deps.logger,
        clock: deps.clock,
        createRejectedWriter: (dir) => diverted.into(new RejectedWriter(dir)),
      },
    ),
  );
  const exhausted = client.exhausted();
  return { requests, rows: rows.length, ...(exhausted ? { quotaWaitMs: Math.max(1000, exhausted.resetAt.getTime() - deps.clock.now()) } : {}) };
}
