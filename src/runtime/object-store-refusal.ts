/**
 * A pipeline whose sink cannot write to an object store (an NDJSON file), refused for an s3://
 * output before anything touches the lake: a usage error leaves no lease, probe or run record.
 * The command line asks it for every pipeline before the first runs; a run asks it again.
 */
import { ConfigError } from '../core/errors.js';
import type { SinkDefinition } from '../core/definition.js';
import type { Pipeline, Registry } from '../config/pipeline-schema.js';

/** `remote`: the output is an object store (no folder of ours), named `output` in the message. */
export function refuseSinkOnObjectStore(pipeline: Pipeline, registry: Registry, output: string, remote: boolean): void {
  if (!remote) return;
  const def = registry.find((d) => d.kind === 'sink' && d.type === pipeline.sink.type) as SinkDefinition | undefined;
  const { type: _type, ...config } = pipeline.sink;
  const problem = def?.objectStoreProblem?.(config);
  if (problem !== undefined) throw new ConfigError(`pipeline ${pipeline.name}: ${pipeline.sink.type} ${problem} (output ${output})`);
}
