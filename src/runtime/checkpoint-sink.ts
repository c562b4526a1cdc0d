/**
 * Which sink a pipeline's checkpoints were saved for, as the checkpoint file records it: the sink
 * type, and for NDJSON where the lines go (`ndjson stdout`, `ndjson exports/{dataset}.ndjson`).
 * A pipeline's name keys its checkpoints, so a second pipeline of the same name writing elsewhere
 * (arrow beside parquet, a file beside stdout) would resume where the first stopped and write
 * nothing; comparing these stops that run before it skips anything.
 */
import type { ComponentConfig } from '../config/pipeline-schema.js';

export function checkpointSink(sink: ComponentConfig): string {
  if (sink.type !== 'ndjson') return sink.type;
  const path = typeof sink.path === 'string' ? sink.path : 'stdout';
  return `ndjson ${path === '-' ? 'stdout' : path}`;
}
