/**
 * Settings of one pipeline run: flag > env > pipeline file > default (resolveSettings), then the
 * data overrides (--format, --since, --until, --codes) applied to the pipeline and validated again
 * so a wrong override is reported like a wrong file.
 */
import { dirname, resolve } from 'node:path';
import { narrowOutsideCatalog, settingsFromPipeline } from '../config/apply-settings.js';
import { PipelineConfigError, validatePipeline } from '../config/parse-pipeline.js';
import type { ComponentConfig, Pipeline, Registry } from '../config/pipeline-schema.js';
import { PlanWithoutPlansFileError, resolveSettings, type ResolvedSettings } from '../config/resolve-settings.js';
import { ConfigError } from '../core/errors.js';
import { PLAN_NAMES } from '../core/plan-names.js';
import { ndjsonSinkToStdout } from '../core/stdout-sink.js';
import { parseCodes, type DataArgs, type OutputArgs, type ServiceArgs } from './shared-options.js';
import { UsageError } from './usage-error.js';

export type RunArgs = ServiceArgs & OutputArgs & Partial<DataArgs> & { state?: boolean | undefined; table?: 'delta' | 'hive' | undefined };

function schemaKeys(registry: Registry, kind: 'source' | 'sink', type: string): Set<string> {
  const def = registry.find((d) => d.kind === kind && d.type === type);
  const shape = (def?.configSchema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return new Set(Object.keys(shape ?? {}));
}

/** `pipelineFile`: where the pipeline came from, so its service.plansFile is read relative to it. */
export function resolveRunSettings(pipeline: Pipeline, args: RunArgs, env: NodeJS.ProcessEnv, pipelineFile?: string): ResolvedSettings {
  const filePlans = pipeline.service?.plansFile;
  try {
    return resolveSettings({
      flags: {
        baseUrl: args['base-url'],
        token: args.token,
        plan: args.plan,
        plansFile: args['plans-file'],
        outputDir: args.output,
        stateDir: args['state-dir'],
        format: args.format,
        since: args.since,
        until: args.until,
        codes: parseCodes(args.codes),
      },
      env,
      // The file's layer (its output is `sink.output` or `options.outputDir`), with its plans file
      // read from the pipeline file's folder.
      file: {
        ...settingsFromPipeline(pipeline),
        plansFile: filePlans !== undefined && pipelineFile !== undefined ? resolve(dirname(pipelineFile), filePlans) : filePlans,
      },
      defaults: { plan: 'professional' },
    });
  } catch (e) {
    // A wrong --plan or QUOTELAKE_PLAN is a usage error, not a pipeline error; a wrong service.plan
    // is the pipeline's, reported at its line by the caller.
    if (e instanceof PlanWithoutPlansFileError && e.planOrigin === 'file') throw e;
    if (e instanceof ConfigError) throw new UsageError(e.message, `plans: ${PLAN_NAMES.join(', ')}`);
    throw e;
  }
}

/** The pipeline with the command-line data overrides (and --state / --no-state) applied and validated again. */
export function applyOverrides(
  pipeline: Pipeline,
  resolved: ResolvedSettings,
  registry: Registry,
  file: string,
  flags: { readonly state?: boolean | undefined; readonly table?: 'delta' | 'hive' | undefined } = {},
): Pipeline {
  const { settings, origin } = resolved;
  let source: ComponentConfig = pipeline.source;
  let sink: ComponentConfig = pipeline.sink;
  const sourceKeys = schemaKeys(registry, 'source', source.type);
  const overrides: string[] = [];
  for (const [key, flag] of [
    ['since', '--since'],
    ['until', '--until'],
    ['codes', '--codes'],
  ] as const) {
    if (origin[key] !== 'flag') continue;
    if (!sourceKeys.has(key)) {
      throw new UsageError(`${flag} does not apply to this pipeline: its source "${source.type}" has no "${key}"`, `drop ${flag}, or edit ${file}`);
    }
    const value = settings[key];
    if (key === 'codes' && Array.isArray(value) && value.length === 0) throw new UsageError('--codes is empty', 'give codes such as --codes BTCUSDT,AAPL.US');
    source = { ...source, [key]: value };
    if (key === 'codes') narrowOutsideCatalog(source as Record<string, unknown>, value as string[]);
    overrides.push(flag);
  }
  if (origin.format === 'flag' && settings.format !== undefined && settings.format !== sink.type) {
    if (!registry.some((d) => d.kind === 'sink' && d.type === settings.format)) {
      throw new UsageError(`--format ${settings.format}: this build has no "${settings.format}" sink`);
    }
    // Keep the sink keys the new type also understands (e.g. decimal for parquet -> arrow). A
    // Delta log belongs to the Parquet sink: another format of a `table: delta` pipeline writes
    // plain files (Arrow and NDJSON refuse the key's value); a --table flag is applied below.
    const keys = schemaKeys(registry, 'sink', settings.format);
    const kept = Object.fromEntries(Object.entries(sink).filter(([k, v]) => k !== 'type' && keys.has(k) && !(k === 'table' && v === 'delta')));
    sink = { type: settings.format, ...kept };
    overrides.push('--format');
  }
  if (flags.state !== undefined) {
    if (schemaKeys(registry, 'sink', sink.type).has('keepState')) {
      sink = { ...sink, keepState: flags.state };
      overrides.push(flags.state ? '--state' : '--no-state');
    } else if (!flags.state) {
      // Files merged by key are always resumed; there is no stateless run of them to ask for.
      throw new UsageError(`--no-state does not apply: the "${sink.type}" sink always keeps its checkpoints`, 'drop --no-state, or add --format ndjson');
    } else {
      // Nor a stateful run to opt into: accepted, it would look like it changed something.
      throw new UsageError(`--state applies only to an ndjson sink: the "${sink.type}" sink always keeps its checkpoints (each run writes only what is new)`, 'drop --state, or add --format ndjson');
    }
  }
  if (flags.table !== undefined) {
    // Every dataset sink has the key; the Arrow and NDJSON sinks refuse delta when validated below.
    sink = { ...sink, table: flags.table };
    overrides.push(`--table ${flags.table}`);
  }
  if (overrides.length === 0) return pipeline;
  // Data sent to another sink must not advance the checkpoints of the pipeline's own sink (a
  // `--format ndjson` look at a backfill would otherwise make its next Parquet run skip those
  // bars), so a pipeline run with another format keeps its own state under its own name.
  const name = sink.type !== pipeline.sink.type ? `${pipeline.name}-${sink.type}` : pipeline.name;
  try {
    return validatePipeline({ ...pipeline, name, source, sink }, { registry });
  } catch (e) {
    if (e instanceof ConfigError) {
      // Every problem at once (two bad codes are two findings), not only the first (up to SHOWN_PROBLEMS).
      const message = e instanceof PipelineConfigError ? e.shownMessages().join('; ') : e.message;
      throw new UsageError(`${file} with ${overrides.join(', ')}: ${message}`, 'fix the value given on the command line');
    }
    throw e;
  }
}

/** True when the sink writes NDJSON records to stdout (then stdout carries data and nothing else). */
export function sinkWritesStdout(pipeline: Pipeline): boolean {
  return ndjsonSinkToStdout(pipeline.sink);
}
