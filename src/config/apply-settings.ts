/**
 * The two ends of resolveSettings for a pipeline: what the file says (the `file` layer), and the
 * pipeline with the resolved settings put back in (flags and environment applied).
 */
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import { namedOutput, type ComponentConfig, type Pipeline, type Registry } from './pipeline-schema.js';
import type { Settings, SettingsInput } from './resolve-settings.js';

/** Source keys that flags may override, when the source type has them. */
const SOURCE_KEYS = ['since', 'until', 'codes'] as const;

/** The pipeline file's layer for resolveSettings (never a token). */
export function settingsFromPipeline(pipeline: Pipeline): NonNullable<SettingsInput['file']> {
  const source = pipeline.source as Record<string, unknown>;
  return {
    baseUrl: pipeline.service?.baseUrl,
    plan: pipeline.service?.plan,
    plansFile: pipeline.service?.plansFile,
    outputDir: namedOutput(pipeline),
    stateDir: pipeline.options.stateDir,
    format: pipeline.sink.type,
    since: typeof source.since === 'string' ? source.since : undefined,
    until: typeof source.until === 'string' ? source.until : undefined,
    codes: Array.isArray(source.codes) ? (source.codes as string[]) : undefined,
  };
}

function sourceKeys(registry: Registry, type: string): ReadonlySet<string> {
  const def = registry.find((d) => d.kind === 'source' && d.type === type);
  const schema = def?.configSchema as unknown;
  return new Set(schema instanceof z.ZodObject ? Object.keys((schema as z.ZodObject).shape) : []);
}

/**
 * --codes replaces the file's codes: its codesOutsideCatalog still declares those it names, and no
 * longer the others (the lint refuses a declared code that is not requested, which the user could
 * only mend by editing the file they meant to override). Changes `source` in place.
 */
export function narrowOutsideCatalog(source: Record<string, unknown>, codes: readonly string[]): void {
  const outside = source['codesOutsideCatalog'];
  if (!Array.isArray(outside)) return;
  const kept = outside.filter((code) => codes.includes(code as string));
  if (kept.length > 0) source['codesOutsideCatalog'] = kept;
  else delete source['codesOutsideCatalog'];
}

/**
 * The pipeline with resolved settings applied: output and state directories, service URL and plan,
 * sink type (`format`; the old sink's keys are dropped, they belong to another sink), and the
 * source's since/until/codes where its type has them. Validate the result (runPipeline does).
 */
export function applySettings(pipeline: Pipeline, settings: Settings, registry: Registry): Pipeline {
  const keys = sourceKeys(registry, pipeline.source.type);
  const source: Record<string, unknown> = { ...pipeline.source };
  for (const key of SOURCE_KEYS) {
    const value = settings[key];
    if (value === undefined) continue;
    if (!keys.has(key)) {
      throw new ConfigError(`--${key} is not supported by source type ${pipeline.source.type}`);
    }
    source[key] = value;
  }
  if (settings.codes !== undefined) narrowOutsideCatalog(source, settings.codes);
  const chosen: ComponentConfig =
    settings.format !== undefined && settings.format !== pipeline.sink.type ? { type: settings.format } : pipeline.sink;
  // The resolved output lives in options.outputDir alone (a --output flag may have replaced sink.output).
  const { output: _output, ...sink } = chosen as ComponentConfig & { output?: unknown };
  const service = { ...(pipeline.service ?? {}) };
  if (settings.baseUrl !== undefined) service.baseUrl = settings.baseUrl;
  if (settings.plan !== undefined) service.plan = settings.plan;
  if (settings.plansFile !== undefined) service.plansFile = settings.plansFile;
  return {
    ...pipeline,
    ...(Object.keys(service).length > 0 ? { service } : {}),
    source: source as ComponentConfig,
    sink,
    options: { ...pipeline.options, outputDir: settings.outputDir, stateDir: settings.stateDir },
  };
}
