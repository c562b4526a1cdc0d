/**
 * The path-room check (lake/local-path-room.ts) for a pipeline: its local output, its state folder
 * (its checkpoint's name counts) and the files its sink writes under the output (an NDJSON file).
 * A run asks it before it touches anything, and its plan asks the same, so that `plan && run` does
 * not plan a run that is then refused.
 */
import type { SinkDefinition, SourceDefinition } from '../core/definition.js';
import type { Pipeline, Registry } from '../config/pipeline-schema.js';
import { checkLocalPathRoom } from '../lake/local-path-room.js';

/** `output`, `stateDir`: the local folders the run uses, undefined where it has none (an object store's). */
export function checkPipelinePathRoom(pipeline: Pipeline, registry: Registry, local: { output: string | undefined; stateDir: string | undefined }, max?: number): void {
  const source = registry.find((d) => d.kind === 'source' && d.type === pipeline.source.type) as SourceDefinition | undefined;
  const sink = registry.find((d) => d.kind === 'sink' && d.type === pipeline.sink.type) as SinkDefinition | undefined;
  const { type: _source, ...sourceConfig } = pipeline.source;
  const { type: _sink, ...sinkConfig } = pipeline.sink;
  const sinkFiles = local.output !== undefined && source !== undefined ? (sink?.localFiles?.(sinkConfig, source.dataset(sourceConfig)) ?? []) : [];
  const state = local.stateDir === undefined ? undefined : { dir: local.stateDir, pipeline: pipeline.name };
  checkLocalPathRoom({ output: local.output, state, sinkFiles }, max);
}
