/** Runs a pipeline the way the CLI will: the real registry, the run loop, a rejected-records writer. */
import { PassThrough } from 'node:stream';
import type { ServiceClient } from '../../../src/api/index.js';
import { components } from '../../../src/components.js';
import type { ManualClock } from '../../../src/core/clock.js';
import type { Rejected, Sink } from '../../../src/core/component.js';
import type { Pipeline, PipelineInput } from '../../../src/config/pipeline-schema.js';
import { createRunEvents, type RunEventsRecorder } from '../../../src/runtime/run-events.js';
import { runPipeline, type RunResult } from '../../../src/runtime/run-pipeline.js';
import { RejectedWriter } from '../../../src/sinks/rejected/index.js';

export function rejectedSink(outputDir: string): Sink<Rejected> {
  const writer = new RejectedWriter(outputDir);
  let dataset = 'unknown';
  return {
    recover: (ctx) => writer.recover(ctx),
    write: (batch, ctx) => writer.write(dataset, batch.records, ctx),
    flush: async () => {},
    commit: async (ctx) => {
      const files = await writer.commit(ctx);
      return { files, rows: files.reduce((n, f) => n + f.rows, 0) };
    },
    abort: (ctx) => writer.abort(ctx),
    close: async () => {},
    set dataset(d: string) {
      dataset = d;
    },
  } as Sink<Rejected>;
}

export async function run(
  pipeline: Pipeline | PipelineInput,
  opts: { client: ServiceClient; clock: ManualClock; outputDir: string; stdout?: PassThrough; signal?: AbortSignal },
): Promise<RunResult & { events: RunEventsRecorder }> {
  const events = createRunEvents();
  const result = await runPipeline(pipeline, {
    registry: components,
    outputDir: opts.outputDir,
    client: opts.client,
    clock: opts.clock,
    events,
    stdout: opts.stdout ?? new PassThrough(),
    ...(opts.signal ? { signal: opts.signal } : {}),
    createRejectedSink: (env) => {
      const sink = rejectedSink(env.outputDir) as Sink<Rejected> & { dataset: string };
      sink.dataset = env.dataset;
      return sink;
    },
  });
  return { ...result, events };
}
