/**
 * What `quotelake compact` works on and with which bounds. With a pipeline argument (a file or a
 * name, as for `run`): its output (flags and env win, as for `run`), the dataset and format its sink
 * writes, and its sink's maxRowsPerFile, maxBufferedRows, maxBufferedBytes and retiredGraceMs, so
 * compact keeps the files that pipeline's own commits keep. Without one: --output (or output/) and
 * the sinks' defaults. A flag given always wins over the pipeline's value.
 */
import type { SinkDefinition, SourceDefinition } from '../core/definition.js';
import type { TableFormat } from '../lake/commit/manifest.js';
import { TABLE_DEFAULTS } from '../lake/table-defaults.js';
import { DEFAULT_OUTPUT_DIR } from '../config/resolve-settings.js';
import { loadJob } from './pipeline-job.js';
import { registry } from './registry.js';
import { UsageError } from './usage-error.js';

export interface CompactTargetArgs {
  pipeline?: string | undefined;
  output?: string | undefined;
  dataset?: string | undefined;
  grace?: number | undefined;
  'max-rows-per-file'?: number | undefined;
  'max-buffered-rows'?: number | undefined;
}

export interface CompactTarget {
  readonly output: string;
  readonly dataset?: string;
  readonly format?: TableFormat;
  readonly maxRowsPerFile: number;
  readonly maxBufferedRows: number;
  readonly maxBufferedBytes: number;
  readonly retiredGraceMs: number;
  /** The pipeline file the bounds come from, for the first line of output. */
  readonly pipelineFile?: string;
}

/** The bounds a table sink's config sets (its schema's defaults filled in). */
interface TableSinkBounds {
  maxRowsPerFile: number;
  maxBufferedRows: number;
  maxBufferedBytes: number;
  retiredGraceMs: number;
}

/** A row count option's value: a whole number of rows, at least one, as the sinks' config requires. */
function rowCount(flag: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`--${flag} must be a whole number of rows, 1 or more, got ${String(value)}`);
  return value;
}

/** Flags checked first: a bad value is refused before any pipeline file is read. */
function checkFlags(args: CompactTargetArgs): void {
  if (args.grace !== undefined && (!Number.isInteger(args.grace) || args.grace < 0)) throw new UsageError(`--grace must be a whole number of milliseconds, got ${String(args.grace)}`);
  if (args['max-rows-per-file'] !== undefined) rowCount('max-rows-per-file', args['max-rows-per-file']);
  if (args['max-buffered-rows'] !== undefined) rowCount('max-buffered-rows', args['max-buffered-rows']);
}

export async function compactTarget(args: CompactTargetArgs, env: NodeJS.ProcessEnv): Promise<CompactTarget> {
  checkFlags(args);
  if (args.pipeline === undefined) {
    return {
      output: args.output ?? DEFAULT_OUTPUT_DIR,
      ...(args.dataset !== undefined ? { dataset: args.dataset } : {}),
      maxRowsPerFile: args['max-rows-per-file'] ?? TABLE_DEFAULTS.maxRowsPerFile,
      maxBufferedRows: args['max-buffered-rows'] ?? TABLE_DEFAULTS.maxBufferedRows,
      maxBufferedBytes: TABLE_DEFAULTS.maxBufferedBytes,
      retiredGraceMs: args.grace ?? TABLE_DEFAULTS.retiredGraceMs,
    };
  }
  const job = await loadJob(args.pipeline, { output: args.output }, env);
  const { pipeline } = job;
  const { type: sinkType, ...sinkConfig } = pipeline.sink;
  const sinkDef = registry.find((d) => d.kind === 'sink' && d.type === sinkType) as SinkDefinition | undefined;
  // The two table sinks (the pipeline was validated against the registry, so its sink is there).
  if (sinkDef === undefined || (sinkType !== 'parquet' && sinkType !== 'arrow')) {
    throw new UsageError(`pipeline ${job.ref.display} writes with the ${sinkType} sink: compact works on the Parquet and Arrow tables of a lake`, 'give a pipeline whose sink is parquet or arrow, or --output alone');
  }
  const { type: sourceType, ...sourceConfig } = pipeline.source;
  const sourceDef = registry.find((d) => d.kind === 'source' && d.type === sourceType) as SourceDefinition | undefined;
  const dataset = sourceDef?.dataset(sourceConfig);
  if (args.dataset !== undefined && dataset !== undefined && args.dataset !== dataset) {
    throw new UsageError(`--dataset ${args.dataset}: pipeline ${job.ref.display} writes the ${dataset} dataset`, `leave --dataset out, or give it without the pipeline`);
  }
  const bounds = sinkDef.configSchema.parse(sinkConfig) as TableSinkBounds;
  return {
    output: job.resolved.settings.outputDir,
    ...(dataset !== undefined ? { dataset } : {}),
    format: sinkType,
    maxRowsPerFile: args['max-rows-per-file'] ?? bounds.maxRowsPerFile,
    maxBufferedRows: args['max-buffered-rows'] ?? bounds.maxBufferedRows,
    maxBufferedBytes: bounds.maxBufferedBytes,
    retiredGraceMs: args.grace ?? bounds.retiredGraceMs,
    pipelineFile: job.ref.display,
  };
}
