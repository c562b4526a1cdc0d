/**
 * ndjson: one JSON object per line to stdout or a file; decimals as strings, instants ISO-8601 UTC.
 */
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import type { SinkDefinition } from '../../core/definition.js';
import { ALL_RECORD_KINDS } from '../../core/record-kinds.js';
import { isDataset } from '../shared/datasets/index.js';
import { SinkError } from '../../core/errors.js';
import { NdjsonSink } from './ndjson-sink.js';

export { NdjsonSink } from './ndjson-sink.js';

export const ndjsonSinkConfigSchema = z.strictObject({
  /** `stdout`, or a file path (relative paths are under the output dir); `{dataset}` is replaced. */
  path: z.string().min(1).default('stdout').describe('`stdout`, or a file path (relative to the output folder; `{dataset}` is replaced), written atomically at commit.'),
  /** Bytes gathered before each write to the stream. */
  chunkBytes: z.number().int().min(1).max(16 * 1024 * 1024).default(65_536).describe('Bytes gathered before each write to the stream.'),
  /**
   * Each run replaces an NDJSON output (a pipe, or the file at commit), so by default a run keeps
   * no state and delivers everything in its window; with state it delivers only what is new.
   */
  keepState: z
    .boolean()
    .default(false)
    .describe(
      'Read and save checkpoints, so each run writes only what is new since the rows the last run wrote (on stdout: the rows its reader took). Default false: every run writes everything in its window. `quotelake run --state` sets it.',
    ),
});

export type NdjsonSinkConfig = z.infer<typeof ndjsonSinkConfigSchema>;

export const ndjsonSink: SinkDefinition<NdjsonSinkConfig> = {
  kind: 'sink',
  type: 'ndjson',
  summary: 'One JSON object per line to stdout or a file: decimals as exact strings, instants ISO-8601 UTC; raw records (no transform) as the service sent them.',
  configSchema: ndjsonSinkConfigSchema,
  // Any record is one JSON object: raw records come out as the service sent them (wire strings).
  takes: ALL_RECORD_KINDS,
  examples: [{}, { path: 'stdout' }, { path: 'exports/{dataset}.ndjson' }, { path: 'stdout', keepState: true }],
  keepsState: (config) => config.keepState,
  create(config, env) {
    if (!isDataset(env.dataset)) throw new SinkError(`ndjson: unknown dataset ${JSON.stringify(env.dataset)}`);
    if (config.path === 'stdout' || config.path === '-') {
      return new NdjsonSink(env.dataset, { kind: 'stream', stream: env.stdout }, config.chunkBytes);
    }
    const path = config.path.replaceAll('{dataset}', env.dataset);
    return new NdjsonSink(env.dataset, { kind: 'file', path: isAbsolute(path) ? path : join(env.outputDir, path) }, config.chunkBytes);
  },
};
