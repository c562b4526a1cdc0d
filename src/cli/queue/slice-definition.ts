/**
 * What a slice was enqueued to write, checked by the worker that runs it: the pipeline is named by
 * a file each worker reads, and a file edited (or another file of the same path on another host)
 * between `enqueue` and the run would otherwise write the slice under another name, format or
 * transform into the lake, beside the slices run before the edit.
 */
import { createHash } from 'node:crypto';
import type { Pipeline } from '../../config/pipeline-schema.js';
import type { Slice } from '../../queue/slice.js';
import { UsageError } from '../usage-error.js';

/**
 * A hash of what decides the rows and files a slice commits: the transforms and the sink (its
 * output travels with the slice and is checked there). The source's series and span are the
 * slice's own; its tuning (concurrency, pages ahead) and the service settings are each worker's.
 */
export function sliceDefinition(pipeline: Pipeline): string {
  const { output: _output, ...sink } = pipeline.sink as Record<string, unknown>;
  const what = JSON.stringify({ transforms: pipeline.transforms, sink, onReject: pipeline.options.onReject }, (_key, value: unknown) =>
    // Key order is the file's: the same settings in another order are the same definition. Sorted by
    // code unit, never by locale: every host must hash the same file to the same definition.
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value,
  );
  return createHash('sha256').update(what).digest('hex').slice(0, 16);
}

const HINT = `give this worker the file the slices were queued with, or run "quotelake enqueue" again with the file as it should be (the slices not yet done then take it)`;

/**
 * The slice is the pipeline's by name (its id and its state are): a file now naming another
 * pipeline fails it for good (exit 2), whichever worker reads it.
 */
export function checkSliceName(slice: Slice, pipeline: Pipeline, file: string): void {
  if (pipeline.name !== slice.name) {
    throw new UsageError(`${file}: the slice was queued for the pipeline "${slice.name}", and this file is now the pipeline "${pipeline.name}"; nothing was fetched or written`, HINT);
  }
}

/**
 * A usage error (exit 2) when the worker's transforms or sink are not the enqueuer's. The worker
 * takes it as its own fault (another host may hold the file as it was): the slice goes back.
 */
export function checkSliceDefinition(slice: Slice, pipeline: Pipeline, file: string): void {
  // A slice queued by an earlier version carries no definition: its name is all there is to check.
  if (slice.definition !== undefined && slice.definition !== sliceDefinition(pipeline)) {
    throw new UsageError(`${file}: its transforms or sink changed since the slice was queued (pipeline "${slice.name}"); nothing was fetched or written`, HINT);
  }
}
