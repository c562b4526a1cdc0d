/**
 * Which file a worker runs a slice (or a schedule's firing) with. `enqueue` names the pipeline
 * twice: the argument as given (`pipelines/x.yaml`, a shipped name) and the file it resolved to,
 * absolute. A worker looks at the absolute path first (the enqueuer's own file, whatever folder the
 * worker was started in), then at the argument from its own folder (the same checkout under
 * another folder, or on another host), and takes the first that is the queued pipeline: the same
 * name and the same transforms and sink (slice-definition.ts), so the rows written are those the
 * enqueuer's file would write. None is: nothing runs, and the error names each place looked at.
 */
import { resolvePipelineRef } from '../pipeline-ref.js';
import type { PipelineJob } from '../pipeline-job.js';
import { UsageError } from '../usage-error.js';
import { sliceDefinition } from './slice-definition.js';

export interface QueuedPipeline {
  /** The argument given to `enqueue`. */
  readonly pipeline: string;
  /** The file `enqueue` read, absolute; absent from earlier versions' jobs. */
  readonly pipelinePath?: string | undefined;
  /** The pipeline's own name; absent from earlier versions' schedules (then not checked). */
  readonly name?: string | undefined;
  /** The hash of transforms and sink; absent from schedules (a firing takes the file as it is then) and earlier versions' slices. */
  readonly definition?: string | undefined;
}

const HINT = `give this worker the file the slices were queued with, or run "quotelake enqueue" again with the file as it should be (the slices not yet done then take it)`;

/** The queued pipeline is not on this worker: another worker may hold it, so what was taken goes back. */
export class PipelineNotHereError extends UsageError {}

/**
 * The job of the queued pipeline, loaded by `load` (the settings are the caller's). Throws
 * PipelineNotHereError when no place holds it; a UsageError (the slice's own fault, on any worker)
 * when the file the enqueuer read is there and now names another pipeline; a load error as it is.
 */
export async function locateQueuedPipeline(queued: QueuedPipeline, cwd: string, load: (path: string) => Promise<PipelineJob>): Promise<PipelineJob> {
  const places = queued.pipelinePath !== undefined ? [queued.pipelinePath, queued.pipeline] : [queued.pipeline];
  const verdicts: string[] = [];
  const seen = new Set<string>();
  let found = false;
  for (const [i, place] of places.entries()) {
    let path: string;
    try {
      path = resolvePipelineRef(place, cwd).path;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      verdicts.push(i === 0 && queued.pipelinePath !== undefined ? `${place}: no such file here` : `"${place}" from ${cwd}: no such pipeline file or name`);
      continue;
    }
    if (seen.has(path)) continue;
    seen.add(path);
    found = true;
    const job = await load(path);
    const file = job.ref.display;
    if (queued.name !== undefined && job.pipeline.name !== queued.name) {
      // The very file the enqueuer read: the slice is the pipeline's by name (its id and state are).
      if (i === 0) throw new UsageError(`${file}: the slice was queued for the pipeline "${queued.name}", and this file is now the pipeline "${job.pipeline.name}"; nothing was fetched or written`, HINT);
      verdicts.push(`${file}: the pipeline "${job.pipeline.name}", not "${queued.name}"`);
      continue;
    }
    if (queued.definition !== undefined && queued.definition !== sliceDefinition(job.pipeline)) {
      verdicts.push(`${file}: its transforms or sink changed since the slice was queued (pipeline "${queued.name ?? job.pipeline.name}")`);
      continue;
    }
    return job;
  }
  const what = queued.name !== undefined ? `pipeline "${queued.name}"` : `pipeline ${queued.pipeline}`;
  const message = `${found ? '' : `the ${what} is not on this worker: `}${verdicts.join('; ')}; nothing was fetched or written`;
  const where = queued.pipelinePath ?? queued.pipeline;
  const hint = found
    ? HINT
    : `start the worker where ${where} can be read${queued.pipelinePath !== undefined ? `, or in a folder where "${queued.pipeline}" names that pipeline (a copy of the folder enqueue ran in)` : ''}, or run "quotelake enqueue" again with a path every worker can read`;
  throw new PipelineNotHereError(message, hint);
}
