/**
 * For pipelines written in TypeScript: gives the object its type; the loader and the runtime
 * validate it with the same schema as a YAML file.
 */
import type { PipelineInput } from './pipeline-schema.js';

export function definePipeline<const P extends PipelineInput>(pipeline: P): P {
  return pipeline;
}
