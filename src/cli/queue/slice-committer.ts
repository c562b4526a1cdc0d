/**
 * Commits fetched slices into their lake: one committer per lake at a time across all hosts (the
 * Redis lake lock), and within a worker, every slice fetched while the lake was busy goes into the
 * next commit together. A commit is one run of the pipeline's own sink (recovery, output lock,
 * journal, manifest, merge by key): its fixed cost is paid once per group, not per slice.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.js';
import { groupBy } from '../../core/group-by.js';
import type { Logger } from '../../core/component.js';
import type { Registry } from '../../config/pipeline-schema.js';
import { RejectedWriter } from '../../lake/rejected-writer.js';
import { withLakeLock } from '../../queue/lake-lock.js';
import type { RejectedOutput } from '../../runtime/run-pipeline.js';
import { runPipeline } from '../../runtime/run-pipeline.js';
import { createRunEvents } from '../../runtime/run-events.js';
import { observeRun, type QuotelakeMetrics } from '../../runtime/metrics/index.js';
import { openOutput } from '../output-storage.js';
import { klineStream } from '../../sources/shared/kline-records.js';
import type { FetchedSlice, HeldRejected } from './fetch-slice.js';
import { ROWS_SOURCE, rowsSource } from './slice-components.js';

export interface CommitDeps {
  readonly registry: Registry;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly redis: Redis;
  /** The S3-compatible store of an s3:// output (else AWS_ENDPOINT_URL, else AWS). */
  readonly s3Endpoint?: string | undefined;
  /** --metrics-port / --metrics-textfile: rows and files each commit made visible, as a run counts them. */
  readonly metrics?: QuotelakeMetrics | undefined;
}

/** The lake's identity for its lock: the same folder (or bucket URL) from any cwd. */
export function lakeKey(outputDir: string): string {
  const where = /^[a-z][a-z0-9+.-]*:\/\//i.test(outputDir) ? outputDir : resolve(outputDir);
  return createHash('sha256').update(where).digest('hex').slice(0, 32);
}

/** The real writer of diverted records, with the slices' held ones written at its first commit. */
function withHeld(real: RejectedWriter, held: HeldRejected[]): RejectedOutput {
  return {
    recover: (ctx) => real.recover(ctx),
    write: (dataset, records, ctx) => real.write(dataset, records, ctx),
    commit: async (ctx) => {
      for (const h of held.splice(0)) await real.write(h.dataset, h.records, ctx);
      return real.commit(ctx);
    },
    abort: (ctx) => real.abort(ctx),
  };
}

async function commitGroup(group: readonly FetchedSlice[], deps: CommitDeps): Promise<void> {
  const { pipeline } = group[0]!.job;
  const { outputDir, stateDir } = group[0]!.job.resolved.settings;
  const held = group.flatMap((f) => f.diverted);
  // One batch per series, as a run's source yields them; a code that fetched nothing gets an empty
  // one, so a slice with no rows at all still commits (its diverted records ride on that commit).
  const batches = group.flatMap((f) => {
    const byCode = groupBy(f.rows, (r) => r.code);
    const codes = f.slice.codes.filter((c) => !byCode.has(c));
    return [...byCode.entries(), ...codes.map((c) => [c, []] as const)].map(([code, rows]) => ({ stream: klineStream(code, f.slice.interval), rows }));
  });
  // An s3:// lake is written through its storage, as `run` writes it (a folder needs none).
  const output = await openOutput(outputDir, deps.s3Endpoint, process.env);
  const events = createRunEvents();
  const unobserve = deps.metrics ? observeRun(deps.metrics, events, 'kline') : undefined;
  try {
    await runPipeline(
      { ...pipeline, source: { type: ROWS_SOURCE }, transforms: [] },
      // Its own signal: a commit, once begun, ends (a stop waits for it).
      {
        registry: [...deps.registry, rowsSource(batches, held.length > 0)],
        outputDir,
        stateDir,
        ...(output.storage !== undefined ? { storage: output.storage } : {}),
        logger: deps.logger,
        clock: deps.clock,
        createRejectedWriter: (dir) => withHeld(new RejectedWriter(dir), [...held]),
        events,
      },
    );
    // Records the fetch rejected were received too: counted once their commit landed.
    for (const h of held) {
      deps.metrics?.rows(h.dataset, 'received', h.records.length);
      deps.metrics?.rows(h.dataset, 'rejected', h.records.length);
    }
  } finally {
    unobserve?.();
    output.close();
  }
}

interface Waiting {
  readonly fetched: FetchedSlice;
  readonly done: (error?: unknown) => void;
}

export interface SliceCommitter {
  /** Resolves once the slice's rows are committed (with others fetched meanwhile). */
  commit(fetched: FetchedSlice): Promise<void>;
}

export function createSliceCommitter(deps: CommitDeps): SliceCommitter {
  // Slices commit together only into the same lake, through the same sink and state.
  const queues = new Map<string, { waiting: Waiting[]; running: boolean }>();
  const drain = async (lake: string, q: { waiting: Waiting[]; running: boolean }) => {
    q.running = true;
    try {
      while (q.waiting.length > 0) {
        await withLakeLock(deps.redis, lake, async () => {
          // Taken once the lock is held: whatever arrived while waiting for it goes in too.
          const group = q.waiting.splice(0);
          try {
            await commitGroup(group.map((w) => w.fetched), deps);
            for (const w of group) w.done();
          } catch (error) {
            for (const w of group) w.done(error);
          }
        }).catch((error: unknown) => {
          for (const w of q.waiting.splice(0)) w.done(error);
        });
      }
    } finally {
      q.running = false;
    }
  };
  return {
    commit(fetched) {
      const { pipeline, resolved } = fetched.job;
      const lake = lakeKey(resolved.settings.outputDir);
      const key = JSON.stringify([lake, resolved.settings.stateDir, pipeline.name, pipeline.sink, pipeline.options]);
      let q = queues.get(key);
      if (q === undefined) {
        q = { waiting: [], running: false };
        queues.set(key, q);
      }
      const queue = q;
      return new Promise<void>((resolvePromise, reject) => {
        queue.waiting.push({ fetched, done: (error) => (error === undefined ? resolvePromise() : reject(error)) });
        if (!queue.running) void drain(lake, queue);
      });
    },
  };
}
