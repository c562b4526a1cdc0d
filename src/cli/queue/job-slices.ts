/**
 * The slices of one `enqueue`: the K-line pipeline's series split along the lake's partitions
 * (src/queue/plan-slices.ts), each with the requests it needs as the planner counts them (the
 * queue's ETA). `since`/`until` are resolved once, here, against the command's clock, so every
 * worker fetches the same absolute range whatever its own clock says.
 */
import { findProduct } from '../../catalog/index.js';
import { firstCellMs, intervalSupported } from '../../catalog/bar-grid.js';
import type { Interval } from '../../core/records.js';
import { groupSlices, SLICE_REQUESTS, type SlicePiece } from '../../queue/group-slices.js';
import { planSlices } from '../../queue/plan-slices.js';
import type { Slice } from '../../queue/slice.js';
import { planKlineHistory } from '../../sources/kline-history/plan-kline-history.js';
import { resolveTimeSpec } from '../../sources/shared/time-spec.js';
import type { PipelineJob } from '../pipeline-job.js';
import { UsageError } from '../usage-error.js';
import { sliceDefinition } from './slice-definition.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export interface SliceTarget {
  /** The pipeline argument as given (every worker loads it the same way). */
  readonly pipeline: string;
  /** The file it resolved to, absolute. */
  readonly pipelinePath: string;
  readonly output?: string | undefined;
  readonly format?: string | undefined;
  readonly stateDir?: string | undefined;
}

/** When slices are cut: now, and what spans such as `2d` count back from (core/clock.ts, spanAnchor). */
export interface SliceTime {
  readonly nowMs: number;
  readonly spanFromMs: number;
}

/** `budget`: planned requests a slice of several codes may hold (group-slices.ts). */
export function jobSlices(job: PipelineJob, target: SliceTarget, at: SliceTime, budget = SLICE_REQUESTS): Slice[] {
  const source = job.pipeline.source as { type: string; codes?: string[]; intervals?: Interval[]; since?: string; until?: string };
  if (source.type !== 'kline-history') {
    throw new UsageError(
      `${job.ref.display}: only kline-history pipelines are split into slices (this one's source is ${source.type})`,
      'run snapshot and halt pipelines with "quotelake run" (on a schedule of your own), or queue a kline-history pipeline',
    );
  }
  if ((target.format ?? job.pipeline.sink.type) === 'ndjson') {
    throw new UsageError(
      `${job.ref.display}: its sink is ndjson, which would write to the stdout of whichever worker runs a slice, or have every slice rewrite one file at once`,
      'queue it with a lake sink (--format parquet or --format arrow), or run the NDJSON export with "quotelake run"',
    );
  }
  const { nowMs, spanFromMs: spanFrom } = at;
  // An `until` still to come is now, as for a run: a slice of a day that has not happened yet would
  // be done (empty) as soon as a worker took it, and, its id being its range, never queued again.
  const untilMs = Math.min(source.until !== undefined ? resolveTimeSpec(source.until, spanFrom) : nowMs, nowMs);
  const pieces: SlicePiece[] = [];
  for (const code of source.codes ?? []) {
    const product = findProduct(code);
    if (!product) continue; // the pipeline's lint has named it already
    const askedMs = source.since !== undefined ? resolveTimeSpec(source.since, spanFrom) : -Infinity;
    // Each series from its own first cell: a week or month opens before a mid-week listing.
    const ranges = (source.intervals ?? [])
      .filter((interval) => intervalSupported(product, interval))
      .flatMap((interval) => planSlices([{ code, interval, walkable: product.endTimestampSupported }], Math.max(askedMs, firstCellMs(product, interval)), untilMs));
    for (const r of ranges) {
      const plan = planKlineHistory({ codes: [r.code], intervals: [r.interval], since: iso(r.fromMs), until: iso(r.untilMs) }, { nowMs, checkpoints: new Map() });
      const requests = plan.streams.reduce((a, s) => a + s.requests, 0);
      pieces.push({ ...r, requests });
    }
  }
  const definition = sliceDefinition(job.pipeline);
  return groupSlices(pieces, budget).map((g) => ({ pipeline: target.pipeline, pipelinePath: target.pipelinePath, name: job.pipeline.name, ...g, output: target.output, format: target.format, ...(target.stateDir !== undefined ? { stateDir: target.stateDir } : {}), definition }));
}
