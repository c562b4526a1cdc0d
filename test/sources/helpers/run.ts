/** Runs a pipeline the way the CLI will: the real registry (or one given) and the run loop. */
import { PassThrough } from 'node:stream';
import type { ServiceClient } from '../../../src/api/index.js';
import { components } from '../../../src/components.js';
import type { ManualClock } from '../../../src/core/clock.js';
import type { ComponentDefinition } from '../../../src/core/definition.js';
import type { Pipeline, PipelineInput } from '../../../src/config/pipeline-schema.js';
import { createRunEvents, type RunEventsRecorder } from '../../../src/runtime/run-events.js';
import { runPipeline, type RunResult } from '../../../src/runtime/run-pipeline.js';

export async function run(
  pipeline: Pipeline | PipelineInput,
  opts: { client: ServiceClient; clock: ManualClock; outputDir: string; stdout?: PassThrough; signal?: AbortSignal; registry?: readonly ComponentDefinition[] },
): Promise<RunResult & { events: RunEventsRecorder }> {
  const events = createRunEvents();
  const result = await runPipeline(pipeline, {
    registry: opts.registry ?? components,
    outputDir: opts.outputDir,
    client: opts.client,
    clock: opts.clock,
    events,
    stdout: opts.stdout ?? new PassThrough(),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { ...result, events };
}
