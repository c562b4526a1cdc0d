/** Whether a pipeline's runs read and save checkpoints: its sink decides (default yes). */
import type { SinkDefinition } from '../core/definition.js';
import type { Pipeline, Registry } from '../config/pipeline-schema.js';

export function keepsState(pipeline: Pipeline, registry: Registry): boolean {
  const def = registry.find((d) => d.kind === 'sink' && d.type === pipeline.sink.type) as SinkDefinition | undefined;
  const { type: _type, ...config } = pipeline.sink;
  return def?.keepsState?.(config) ?? true;
}
