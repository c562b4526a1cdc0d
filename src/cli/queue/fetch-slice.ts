/**
 * One slice, through the run loop of `quotelake run` in two steps:
 * 1. fetch (here): the pipeline's source and transforms restricted to the slice's series and range,
 *    into memory (a private output folder holds the run's own bookkeeping and is removed after).
 *    Slices of a worker, and of every worker, fetch side by side.
 * 2. commit (slice-committer.ts): those rows through the pipeline's own sink into the shared lake,
 *    as a run commits, holding the lake lock; a worker commits the slices it has fetched meanwhile
 *    together, in one run.
 * A slice stopped during step 1 commits nothing and goes back to the queue whole; once step 2
 * starts it runs to its end (a commit is short, and a kill inside it is recovered by the next).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Logger, Rejected } from '../../core/component.js';
import type { KlineRow } from '../../core/records.js';
import type { Registry } from '../../config/pipeline-schema.js';
import type { Slice } from '../../queue/slice.js';
import { createRunEvents } from '../../runtime/run-events.js';
import { runPipeline, type RejectedOutput } from '../../runtime/run-pipeline.js';
import { sliceFetchLogger } from './slice-fetch-logger.js';
import type { PipelineJob } from '../pipeline-job.js';
import { QuotaWatchingClient } from '../quota-watch.js';
import { TokenPool, type PoolQuotaStop, type ServiceClient } from '../../api/index.js';
import { CAPTURE_SINK, captureSink } from './slice-components.js';
import { makeSliceScratch } from './slice-scratch.js';

export interface FetchDeps {
  readonly registry: Registry;
  /** The worker's client for the slice's token and plan (shared by its slices: one limiter). */
  readonly client: ServiceClient;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Records a slice diverted (`onReject: divert`), kept until its commit. */
export interface HeldRejected {
  readonly dataset: string;
  readonly records: readonly Rejected[];
}

export interface FetchedSlice {
  readonly job: PipelineJob;
  readonly slice: Slice;
  readonly rows: readonly KlineRow[];
  readonly diverted: readonly HeldRejected[];
  readonly requests: number;
  /** The daily quota stopped the fetch: its reset, on the command's clock. */
  readonly quotaResetAt?: number;
  /** With a token pool some of whose tokens still have quota: the tokens used up that alone cover codes of the slice. */
  readonly poolStop?: PoolQuotaStop;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Collects what the fetch diverts; only what a (capture) commit covered is kept. */
function divertCollector(held: HeldRejected[]): RejectedOutput {
  let pending: HeldRejected[] = [];
  return {
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
}

export async function fetchSlice(job: PipelineJob, slice: Slice, deps: FetchDeps, signal: AbortSignal): Promise<FetchedSlice | 'aborted'> {
  const { pipeline } = job;
  const rows: KlineRow[] = [];
  const diverted: HeldRejected[] = [];
  const events = createRunEvents();
  // Per slice: it remembers a quota error raised by this slice's requests only.
  const client = new QuotaWatchingClient(deps.client);
  const scratch = await makeSliceScratch();
  try {
    const fetched = await runPipeline(
      {
        ...pipeline,
        source: { ...pipeline.source, codes: [...slice.codes], intervals: [slice.interval], since: iso(slice.fromMs), until: iso(slice.untilMs) },
        sink: { type: CAPTURE_SINK },
        options: { ...pipeline.options, outputDir: scratch, stateDir: join(scratch, '.state') },
      },
      {
        registry: [...deps.registry, captureSink(rows)],
        outputDir: scratch,
        stateDir: join(scratch, '.state'),
        client,
        signal,
        logger: sliceFetchLogger(deps.logger),
        events,
        clock: deps.clock,
        // Diverted records wait in memory too, and go to the lake's _rejected/ with the slice's commit.
        createRejectedWriter: () => divertCollector(diverted),
      },
    );
    if (fetched.status === 'aborted') return 'aborted';
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const requests = Object.values(events.snapshot().requests).reduce((a, b) => a + b, 0);
  const exhausted = client.exhausted();
  if (!exhausted) return { job, slice, rows, diverted, requests };
  // The pool's word for the stop, as `run` says it: which tokens, which codes (run-job.ts).
  const poolStop = deps.client instanceof TokenPool ? await deps.client.quotaStop(slice.codes).catch(() => undefined) : undefined;
  return { job, slice, rows, diverted, requests, quotaResetAt: exhausted.resetAt.getTime(), ...(poolStop ? { poolStop } : {}) };
}
