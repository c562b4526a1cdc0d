/**
 * Whether a stopped run of a pipeline is resumed by the next: its sink decides whether runs read
 * and save checkpoints (default yes), and its source whether a checkpoint can say where to go on
 * (a polling source samples the present: the next run takes all its rounds anew).
 */
import type { SinkDefinition, SourceDefinition } from '../core/definition.js';
import type { Pipeline, Registry } from '../config/pipeline-schema.js';

export function keepsState(pipeline: Pipeline, registry: Registry): boolean {
  const def = registry.find((d) => d.kind === 'sink' && d.type === pipeline.sink.type) as SinkDefinition | undefined;
  const { type: _type, ...config } = pipeline.sink;
  return def?.keepsState?.(config) ?? true;
}

/**
 * A look: a run that keeps no state and writes nothing into the output folder (NDJSON to stdout).
 * It takes no lock on the output and leaves it to its owner: no recovery, no run record.
 */
export function isLook(pipeline: Pipeline, registry: Registry): boolean {
  if (keepsState(pipeline, registry)) return false;
  const def = registry.find((d) => d.kind === 'sink' && d.type === pipeline.sink.type) as SinkDefinition | undefined;
  const { type: _type, ...config } = pipeline.sink;
  return def?.writesOutput?.(config) === false;
}

/** `resumed`, or why not: the output keeps no state, or the source polls. */
export type Resumption = 'resumed' | 'no-state' | 'polling';

export function resumptionOf(pipeline: Pipeline, registry: Registry): Resumption {
  if (!keepsState(pipeline, registry)) return 'no-state';
  const source = registry.find((d) => d.kind === 'source' && d.type === pipeline.source.type) as SourceDefinition | undefined;
  return source?.polls === true ? 'polling' : 'resumed';
}
