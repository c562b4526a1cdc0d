/**
 * ndjson: one JSON object per line to stdout or a file; decimals as strings, instants ISO-8601 UTC.
 */
import { posix, relative, sep } from 'node:path';
import * as z from 'zod';
import { outputSetting, SINK_OUTPUT_DESCRIPTION } from '../../core/output-setting.js';
import type { SinkDefinition } from '../../core/definition.js';
import { ALL_RECORD_KINDS } from '../../core/record-kinds.js';
import { isDataset } from '../../lake/datasets/index.js';
import { lakeOwnedPathProblem } from '../../lake/lake-paths.js';
import { DATASETS } from '../../core/records.js';
import { ConfigError, SinkError } from '../../core/errors.js';
import { confinePath, pathProblem } from '../../core/confine-path.js';
import { controlCharacterProblem } from '../../core/control-characters.js';
import { unexpandedPathProblem } from '../../core/unexpanded-path.js';
import { NdjsonSink } from './ndjson-sink.js';
import { tempPathOf } from './replace-file.js';
import { SAMPLE_RUN_ID } from '../../core/lake-key-reserve.js';
import { envIsRemote } from '../shared/env-storage.js';
import { refuseDelta, tableKindSchema } from '../shared/table-kind-config.js';
import { isStdoutPath } from '../../core/stdout-sink.js';

export { NdjsonSink } from './ndjson-sink.js';

export const ndjsonSinkConfigSchema = z.strictObject({
  output: outputSetting.optional().describe(SINK_OUTPUT_DESCRIPTION),
  /** `stdout` (or `-`, core/stdout-sink.ts), or a file path inside the output dir; `{dataset}` is replaced (the only placeholder). */
  path: z
    .string()
    .min(1)
    .default('stdout')
    .describe('`stdout` (or `-`, as shell tools write it: the same; in lower case only: `STDOUT` is refused, a file of that name is `./STDOUT`), or a file path inside the output folder (relative to it: no absolute path, no way out through .., no control characters; `{dataset}` is replaced, and is the only placeholder): a dataset that accumulates, one line per key, replaced atomically at each commit.'),
  /** Bytes gathered before each write to the stream or the file. */
  chunkBytes: z.number().int().min(1).max(16 * 1024 * 1024).default(65_536).describe('Bytes gathered before each write to the stream or the file.'),
  /**
   * A pipe's rows are gone once written, so on stdout a run keeps no state unless asked; a file
   * accumulates, so its checkpoints are kept like those of the Parquet sink unless refused.
   */
  keepState: z
    .boolean()
    .optional()
    .describe(
      'Read and save checkpoints, so each run writes only what is new. Default: true for a file (it accumulates: rows merged by key), false on stdout (every run writes everything in its window; with state, only rows after those the last reader took). false on a file: each run rewrites the file with exactly its own window. `quotelake run --state` / `--no-state` set it.',
    ),
  /** Only `hive`: lines are no Delta data files (the key exists so `delta` gets a clear message). */
  table: tableKindSchema.describe('Only `hive`: lines are no Delta data files (`delta` is refused; use the parquet sink).'),
});

const OWN_FOLDER = ': give a file in a folder of your own, e.g. exports/{dataset}.ndjson';

/** The placeholders create() replaces in a path; any other `{...}` would stay in the file name as written. */
const PLACEHOLDERS = ['{dataset}'];

/**
 * Why a sink path cannot name the NDJSON file of every dataset, or undefined: it must be a file
 * inside the output folder and outside the lake's own folders, whichever dataset `{dataset}` becomes.
 */
function filePathProblem(path: string): string | undefined {
  // `STDOUT` taken for a file would leave a stray file and nothing on stdout: a slip of case, not a name.
  if (path.toLowerCase() === 'stdout') return `is not standard output (only stdout, in lower case, or - is): did you mean stdout? For a file of that name, write ./${path}`;
  const control = controlCharacterProblem(path);
  if (control !== undefined) return `${control}: a file name holds none; write the path without it`;
  const unexpanded = unexpandedPathProblem(path);
  if (unexpanded !== undefined) return `${unexpanded} (a path inside the output folder; choose the folder with --output)`;
  const unknown = path.match(/\{[^{}]*\}/g)?.find((p) => !PLACEHOLDERS.includes(p));
  if (unknown !== undefined) return `has ${unknown}, which is not a placeholder: only ${PLACEHOLDERS.join(', ')} is replaced (by ${DATASETS.join(', ')}); write the name out`;
  if (path.endsWith('/')) return `ends with /, so names a folder${OWN_FOLDER}`;
  // A first folder that is `{dataset}` itself is the folder of whichever dataset the source writes:
  // said by lintForDataset, which knows that dataset (naming the first one, kline, misled a trade pipeline).
  const perDataset = topFolder(path) === '{dataset}';
  for (const dataset of DATASETS) {
    const relative = path.replaceAll('{dataset}', dataset);
    const outside = pathProblem(relative);
    if (outside !== undefined) {
      return `${outside}: an NDJSON file must be inside the output folder; give a path relative to it (e.g. exports/{dataset}.ndjson) and choose the folder with --output`;
    }
    const owned = perDataset ? undefined : lakeOwnedPathProblem(relative);
    if (owned !== undefined) return `${owned}${OWN_FOLDER}`;
  }
  return undefined;
}

function topFolder(path: string): string {
  return posix.normalize(path).split('/')[0]!;
}

/** The problem of a path whose first folder is `{dataset}`, for the dataset the source writes. */
function datasetFolderProblem(path: string, dataset: string): string | undefined {
  if (isStdoutPath(path) || topFolder(path) !== '{dataset}') return undefined;
  const owned = lakeOwnedPathProblem(path.replaceAll('{dataset}', dataset));
  return owned === undefined ? undefined : `${owned} (${dataset} is the dataset this pipeline's source writes)${OWN_FOLDER}`;
}

/** A file keeps state unless told not to; stdout only when told to. */
export function ndjsonKeepsState(config: { path: string; keepState?: boolean | undefined }): boolean {
  return config.keepState ?? !isStdoutPath(config.path);
}

export type NdjsonSinkConfig = z.infer<typeof ndjsonSinkConfigSchema>;

/**
 * A file target cannot live on an object store: the file is merged and replaced by rename at each
 * commit, and a store has neither a rename nor an append (a whole-object rewrite per commit would
 * upload the dataset again each time).
 */
function objectStoreProblem(path: string): string {
  return `sink path ${JSON.stringify(path)} is a file, which an s3:// output cannot hold: on an object store use the parquet or arrow sink, or path: stdout`;
}

export const ndjsonSink: SinkDefinition<NdjsonSinkConfig> = {
  kind: 'sink',
  type: 'ndjson',
  summary:
    'One JSON object per line to stdout or a file: decimals as exact strings, instants ISO-8601 UTC. Raw records (no transform) keep the service\'s own fields and text, in an envelope: `{ code, interval, bar, final }` (K-line), `{ tick, fetchedAtMs }` (trade, order book), `{ exchange, record, fetchedAtMs }` (halt; `fetchedAtMs` in epoch ms).',
  configSchema: ndjsonSinkConfigSchema,
  // Any record is one JSON object: raw records come out as the service sent them (wire strings).
  takes: ALL_RECORD_KINDS,
  examples: [{}, { path: 'stdout' }, { path: 'exports/{dataset}.ndjson' }, { path: 'stdout', keepState: true }, { path: 'exports/{dataset}.ndjson', keepState: false }],
  keepsState: ndjsonKeepsState,
  writesOutput: (config) => !isStdoutPath(config.path),
  objectStoreProblem: (config) => (isStdoutPath(config.path) ? undefined : objectStoreProblem(config.path)),
  // Each commit writes the whole file beside it under a temporary name first (replace-file.ts).
  localFiles: (config, dataset) => (isStdoutPath(config.path) ? [] : [tempPathOf(config.path.replaceAll('{dataset}', dataset), SAMPLE_RUN_ID)]),
  lint(config) {
    const table = refuseDelta(config, 'ndjson');
    if (table.length > 0) return table;
    if (isStdoutPath(config.path)) return [];
    const problem = filePathProblem(config.path);
    if (problem === undefined) return [];
    return [{ path: ['path'], message: `${JSON.stringify(config.path)} ${problem}` }];
  },
  lintForDataset(config, dataset) {
    const problem = datasetFolderProblem(config.path, dataset);
    return problem === undefined ? [] : [{ path: ['path'], message: `${JSON.stringify(config.path)} ${problem}` }];
  },
  create(config, env) {
    if (!isDataset(env.dataset)) throw new SinkError(`ndjson: unknown dataset ${JSON.stringify(env.dataset)}`);
    if (isStdoutPath(config.path)) {
      return new NdjsonSink(env.dataset, { kind: 'stream', stream: env.stdout }, config.chunkBytes);
    }
    const path = config.path.replaceAll('{dataset}', env.dataset);
    // Refused before the lake is touched (cli/pipeline-job.ts); again here for a program's own run.
    if (envIsRemote(env)) throw new ConfigError(`ndjson: ${objectStoreProblem(path)} (${env.outputDir})`);
    // Without state a run starts from nothing, so its file must too, or rows would pile up run after run.
    const accumulate = ndjsonKeepsState(config);
    // Guarded again at run time: a config that skipped validation still cannot write outside, nor
    // into the lake's own folders.
    const full = confinePath(env.outputDir, path, 'ndjson sink path');
    const problem = filePathProblem(config.path) ?? datasetFolderProblem(config.path, env.dataset);
    if (problem !== undefined) throw new ConfigError(`ndjson: sink path ${JSON.stringify(config.path)} ${problem}`);
    // Named relative to the output folder in committed files and messages, '/' between folders.
    const shownAs = relative(env.outputDir, full).split(sep).join('/');
    return new NdjsonSink(env.dataset, { kind: 'file', path: full, accumulate, shownAs }, config.chunkBytes);
  },
};
