/**
 * What a slice was enqueued to write, checked by the worker that runs it: the pipeline is named by
 * a file each worker reads, and a file edited (or another file of the same path on another host)
 * between `enqueue` and the run would otherwise write the slice under another name, format or
 * transform into the lake, beside the slices run before the edit.
 */
import { createHash } from 'node:crypto';
import type { Pipeline } from '../../config/pipeline-schema.js';
import { canonicalJson } from '../../core/canonical-json.js';

/**
 * A hash of what decides the rows and files a slice commits: the transforms and the sink (its
 * output travels with the slice and is checked there). The source's series and span are the
 * slice's own; its tuning (concurrency, pages ahead) and the service settings are each worker's.
 */
export function sliceDefinition(pipeline: Pipeline): string {
  const { output: _output, ...sink } = pipeline.sink as Record<string, unknown>;
  // Key order is the file's: the same settings in another order are the same definition, on every host.
  const what = canonicalJson({ transforms: pipeline.transforms, sink, onReject: pipeline.options.onReject });
  return createHash('sha256').update(what).digest('hex').slice(0, 16);
}
