/**
 * The ONE schema of a pipeline, for YAML files and definePipeline() alike. Its component parts are
 * discriminated unions assembled from a registry of definitions, so tests can register their own.
 */
import { baseUrlProblem } from '../core/base-url.js';
import * as z from 'zod';
import type { ComponentDefinition, LintFinding } from '../core/definition.js';
import { isIanaZone, notAZone } from '../core/iana-zone.js';
import { didYouMean } from '../core/did-you-mean.js';
import { isPlanName, PLAN_NAMES } from '../core/plan-names.js';
import { CUSTOM_PLAN_NAME } from '../core/plans-file.js';
import { outputSetting, stateDirSetting } from '../core/output-setting.js';
import { unexpandedPathProblem } from '../core/unexpanded-path.js';
import { MAX_PIPELINE_NAME_CHARS } from '../core/lake-key-reserve.js';
import { crossStageFindings, outputConflict, pipelineReadable } from './cross-stage-checks.js';
import { serviceRetrySchema, type ServiceRetry } from './service-retry.js';
import { unregisteredKind } from './unregistered-kind.js';
import { serviceTimeoutsSchema, type ServiceTimeouts } from './service-timeouts.js';


export const ON_REJECT = ['fail', 'drop', 'divert'] as const;
export type OnReject = (typeof ON_REJECT)[number];

export const PIPELINE_NAME = /^[a-z0-9-]+$/;

export const DEFAULT_BATCH_MAX_ROWS = 50_000;
export const DEFAULT_BATCH_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_COMMIT_EVERY_BATCHES = 2000;
export const DEFAULT_COMMIT_EVERY_MS = 60_000;

export type Registry = readonly ComponentDefinition[];

/** A component's config once validated: its `type` plus its own keys. */
export interface ComponentConfig {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface ServiceConfig {
  readonly baseUrl?: string | undefined;
  /** A built-in plan, or a custom plan of `plansFile`. */
  readonly plan?: string | undefined;
  /** Plans file defining custom plans, relative to the pipeline file (only its `plans:` is read). */
  readonly plansFile?: string | undefined;
  readonly quotaTimeZone?: string | undefined;
  /** Request timeouts (their sum is the shared limiter's lease); unset ones keep the client's defaults. */
  readonly timeouts?: ServiceTimeouts | undefined;
  /** Retries of a request that failed for a reason that may pass; unset ones keep the client's defaults. */
  readonly retry?: ServiceRetry | undefined;
}

export interface PipelineOptions {
  readonly outputDir?: string | undefined;
  readonly stateDir?: string | undefined;
  readonly onReject: OnReject;
  readonly batchMaxRows: number;
  readonly batchMaxBytes: number;
  /** Commit the sink and save checkpoints after this many source batches ... */
  readonly commitEveryBatches: number;
  /** ... or once this much time has passed since the last commit, whichever comes first. */
  readonly commitEveryMs: number;
}

/** A validated pipeline: defaults applied, every component config checked by its definition. */
export interface Pipeline {
  readonly name: string;
  readonly description?: string | undefined;
  readonly service?: ServiceConfig | undefined;
  readonly source: ComponentConfig;
  readonly transforms: readonly ComponentConfig[];
  readonly sink: ComponentConfig;
  readonly options: PipelineOptions;
}

/** The output root a pipeline names: `sink.output` or `options.outputDir` (one setting; the schema refuses two different ones). */
export function namedOutput(pipeline: Pick<Pipeline, 'sink' | 'options'>): string | undefined {
  return (pipeline.sink as { output?: string }).output ?? pipeline.options.outputDir;
}

/**
 * What a pipeline author writes (YAML or TypeScript): defaults may be left out. The component
 * types narrow it to a registry's own configs (the shipped ones: definePipeline in index.ts).
 */
export interface PipelineInput<Source extends ComponentConfig = ComponentConfig, Stage extends ComponentConfig = ComponentConfig, Output extends ComponentConfig = ComponentConfig> {
  readonly name: string;
  readonly description?: string;
  readonly service?: ServiceConfig;
  readonly source: Source;
  readonly transforms?: readonly Stage[];
  readonly sink: Output;
  readonly options?: Partial<PipelineOptions>;
}

export const serviceSchema = z
  .strictObject({
    baseUrl: z
      .url({ protocol: /^https?$/, message: 'is not an http(s) URL: give it as http://host:port or https://host[/path]' })
      // The rule run applies to every base URL, so validate refuses the file at this line first.
      // (Not a URL, or not http(s): z.url's own message has said so.)
      .superRefine((text, ctx) => {
        if (!URL.canParse(text) || !/^https?:/i.test(text)) return;
        const problem = baseUrlProblem(text);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${problem.reason}${problem.hint ? `: ${problem.hint}` : ''}` });
      })
      .optional()
      .describe('Service root URL (else QUOTELAKE_BASE_URL): http(s)://host[:port][/path], no user, password, query or fragment.'),
    plan: z
      .string()
      .regex(CUSTOM_PLAN_NAME, { message: 'is not a plan name (letters, digits, "-" or "_")' })
      .optional()
      .describe(`The token's plan (else QUOTELAKE_PLAN): ${PLAN_NAMES.join(', ')}, or a custom plan of plansFile (else of --plans-file or QUOTELAKE_PLANS_FILE). The token itself is never in a file.`),
    plansFile: z
      .string()
      .min(1)
      .superRefine((v, ctx) => {
        const problem = unexpandedPathProblem(v);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .describe('Plans file whose custom plans `plan` may name, relative to this pipeline file. Without it, the plans file of --plans-file or QUOTELAKE_PLANS_FILE serves (either also replaces it). Only its plans: section is read; never a token.'),
    quotaTimeZone: z
      .string()
      .refine(isIanaZone, { error: (issue) => notAZone(issue.input) })
      .optional()
      .describe('Zone whose midnight resets the daily quota (default UTC).'),
    timeouts: serviceTimeoutsSchema.optional(),
    retry: serviceRetrySchema.optional(),
  })
  .superRefine((s, ctx) => {
    // A custom plan's name is checked where the plans file is known (the CLI): it may come from
    // service.plansFile, --plans-file or QUOTELAKE_PLANS_FILE. A name near a built-in one with no
    // plans file here is a typo, reported with the file's other problems.
    const near = s.plan !== undefined && !isPlanName(s.plan) && s.plansFile === undefined ? didYouMean(s.plan, PLAN_NAMES) : undefined;
    if (near !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['plan'],
        message: `"${s.plan}" is not one of ${PLAN_NAMES.join(', ')}; did you mean "${near}"?`,
        params: { lint: true },
      });
    }
  })
  .describe('How to reach the service.');

export const optionsSchema = z
  .strictObject({
    outputDir: outputSetting
      .optional()
      .describe('Output root: a folder (a relative one from the folder quotelake runs in, as --output; not from this file), or s3://bucket/prefix (default output).'),
    stateDir: stateDirSetting.optional().describe('State directory (default <outputDir>/.state; a relative one from the folder quotelake runs in).'),
    onReject: z.enum(ON_REJECT).default('divert').describe('What to do with a rejected record.'),
    batchMaxRows: z.int().positive().default(DEFAULT_BATCH_MAX_ROWS).describe('Largest batch handed to the sink, in rows.'),
    batchMaxBytes: z
      .int()
      .positive()
      .default(DEFAULT_BATCH_MAX_BYTES)
      .describe('Largest batch handed to the sink, in estimated bytes.'),
    commitEveryBatches: z
      .int()
      .positive()
      .default(DEFAULT_COMMIT_EVERY_BATCHES)
      .describe('Commit data and checkpoints after this many source batches.'),
    commitEveryMs: z
      .int()
      .positive()
      .default(DEFAULT_COMMIT_EVERY_MS)
      .describe('Commit data and checkpoints at least this often, in milliseconds.'),
  })
  .describe('Run options.');

type AnyObject = z.ZodObject<z.ZodRawShape>;

function componentSchema(def: ComponentDefinition): AnyObject {
  const schema = def.configSchema as unknown;
  if (!(schema instanceof z.ZodObject)) {
    throw new TypeError(`component ${def.kind} "${def.type}": configSchema must be a zod object schema`);
  }
  const shape = (schema as AnyObject).shape;
  const strict = z.strictObject({ type: z.literal(def.type), ...shape });
  // The component's own lint runs with its schema, so a problem elsewhere in the file (an option
  // out of its enum) never hides it: validate names every problem at once.
  const linted = def.lint ? strict.superRefine((config, ctx) => runLint(def, config as ComponentConfig, ctx)) : strict;
  return def.summary ? linted.describe(`${def.type}: ${def.summary}`) : linted;
}

function unionOf(kind: ComponentDefinition['kind'], registry: Registry): z.ZodType {
  const defs = registry.filter((d) => d.kind === kind);
  const seen = new Set<string>();
  for (const d of defs) {
    if (seen.has(d.type)) throw new TypeError(`component ${kind} "${d.type}" is registered twice`);
    seen.add(d.type);
  }
  const options = defs.map(componentSchema);
  const [first, ...rest] = options;
  if (first === undefined) {
    return unregisteredKind(kind, registry);
  }
  return z.discriminatedUnion('type', [first, ...rest]);
}

function runLint(def: ComponentDefinition, config: ComponentConfig, ctx: z.RefinementCtx): void {
  if (!def.lint) return;
  const { type: _type, ...rest } = config;
  let findings: readonly LintFinding[];
  try {
    findings = (def.lint as (c: unknown) => readonly LintFinding[])(rest);
  } catch (error) {
    // zod runs this refinement even when a key of the stage failed its own schema (a refine's
    // issue does not abort), and a lint written for valid keys may trip over such a key: that
    // key's issue is the answer. A lint that throws on a stage without issues has a bug.
    if (ctx.issues.length > 0) return;
    throw error;
  }
  for (const f of findings) {
    ctx.addIssue({ code: 'custom', path: [...f.path], message: f.message, params: { lint: true } });
  }
}

/** Build the pipeline schema from a registry (the real one is src/components.ts). */
export function buildPipelineSchema(registry: Registry): z.ZodType<Pipeline, unknown> {
  const schema = z
    .strictObject({
      name: z.string().max(MAX_PIPELINE_NAME_CHARS, { message: `must be at most ${MAX_PIPELINE_NAME_CHARS} characters (it names the state files)` }).regex(PIPELINE_NAME, { message: 'must match [a-z0-9-]+' }).describe('Pipeline name: [a-z0-9-]+, at most 200 characters.'),
      description: z.string().optional().describe('One-line description (else the first comment line of the file).'),
      service: serviceSchema.optional(),
      source: unionOf('source', registry).describe('Where records come from.'),
      transforms: z.array(unionOf('transform', registry)).default([]).describe('Applied in order.'),
      sink: unionOf('sink', registry).describe('Where records go.'),
      options: optionsSchema.default({
        onReject: 'divert',
        batchMaxRows: DEFAULT_BATCH_MAX_ROWS,
        batchMaxBytes: DEFAULT_BATCH_MAX_BYTES,
        commitEveryBatches: DEFAULT_COMMIT_EVERY_BATCHES,
        commitEveryMs: DEFAULT_COMMIT_EVERY_MS,
      }),
    })
    // Each stage's own lint ran with its schema (componentSchema); here, the stages together. They
    // run even when another part failed its schema (`when`), on what can still be read soundly.
    .superRefine(
      (p, ctx) => {
        const conflict = outputConflict(p, ctx.issues);
        const findings = crossStageFindings(p, ctx.issues, registry);
        if (conflict !== undefined) ctx.addIssue({ code: 'custom', path: [...conflict.path], message: conflict.message });
        for (const f of findings) {
          ctx.addIssue({ code: 'custom', path: [...f.path], message: f.message, params: { lint: true } });
        }
      },
      { when: pipelineReadable },
    );
  return schema as unknown as z.ZodType<Pipeline, unknown>;
}
