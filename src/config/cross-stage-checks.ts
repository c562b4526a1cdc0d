/**
 * The checks of a pipeline's stages against each other: kinds of records (check-stage-kinds),
 * decimal types (check-decimal-types), the sink against the source's dataset, and the sink's
 * output against options.outputDir. They run even when another part of the file has a problem
 * (a bad option value in one stage), so validate names every problem in one pass instead of
 * showing these only once the rest is fixed. Each check reads only what it can read soundly,
 * so no problem is reported that exists only because of another one.
 */
import type * as z from 'zod';
import type { LintFinding, SinkDefinition, SourceDefinition } from '../core/definition.js';
import { DATASET_DECIMAL_COLUMNS, RECORD_KINDS, type RecordKind } from '../core/record-kinds.js';
import { checkDecimalTypes } from './check-decimal-types.js';
import { checkStageKinds } from './check-stage-kinds.js';
import type { ComponentConfig, Registry } from './pipeline-schema.js';

type Payload = z.core.ParsePayload;
type Path = readonly (string | number)[];

/** The pipeline as zod holds it during the parse: a part that failed its schema holds what it could read. */
interface PartialPipeline {
  readonly source?: unknown;
  readonly transforms?: unknown;
  readonly sink?: unknown;
  readonly options?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether the checks can run at all: the file is a mapping (else there are no stages to read). */
export const pipelineReadable = (payload: Payload): boolean => isRecord(payload.value);

const startsWith = (path: readonly PropertyKey[] | undefined, prefix: Path): boolean => prefix.every((part, i) => path?.[i] === part);

/**
 * Whether the part at `prefix` passed its schema, defaults filled in: no issue under it stopped
 * its parse, and it has no unknown key. A lint's finding leaves it whole (its keys have their
 * types); an unknown key does not, though zod parses on: it may be a misspelt key whose default
 * now stands in for what was meant (`decimall:` leaves the default decimal).
 */
function passed(issues: readonly z.core.$ZodRawIssue[], prefix: Path): boolean {
  return !issues.some((issue) => (issue.continue !== true || issue.code === 'unrecognized_keys') && startsWith(issue.path, prefix));
}

/** The `type` a stage names, if it is a mapping with one; else undefined, which no registered component is. */
const typeOf = (stage: unknown): unknown => (isRecord(stage) ? stage.type : undefined);

function findDefinition(registry: Registry, kind: 'source' | 'sink', type: unknown) {
  return registry.find((d) => d.kind === kind && d.type === type) as (SourceDefinition | SinkDefinition) | undefined;
}

/** The sink's checks against the dataset the source writes (SinkDefinition.lintForDataset). */
function sinkDatasetFindings(registry: Registry, source: ComponentConfig, sink: ComponentConfig): readonly LintFinding[] {
  const sinkDef = findDefinition(registry, 'sink', sink.type) as SinkDefinition | undefined;
  const sourceDef = findDefinition(registry, 'source', source.type) as SourceDefinition | undefined;
  if (sinkDef?.lintForDataset === undefined || sourceDef === undefined) return [];
  const { type: _sinkType, ...sinkConfig } = sink;
  const { type: _sourceType, ...sourceConfig } = source;
  return sinkDef.lintForDataset(sinkConfig, sourceDef.dataset(sourceConfig));
}

/** One output root: `sink.output` and `options.outputDir` name the same setting (read once both passed). */
export function outputConflict(p: PartialPipeline, issues: readonly z.core.$ZodRawIssue[]): LintFinding | undefined {
  if (!passed(issues, ['sink']) || !passed(issues, ['options']) || !isRecord(p.sink) || !isRecord(p.options)) return undefined;
  const sinkOutput = p.sink.output;
  const optionsOutput = p.options.outputDir;
  if (sinkOutput === undefined || optionsOutput === undefined || sinkOutput === optionsOutput) return undefined;
  return { path: ['sink', 'output'], message: `names another output than options.outputDir (${String(optionsOutput)}); give the output in one place` };
}

export function crossStageFindings(p: PartialPipeline, issues: readonly z.core.$ZodRawIssue[], registry: Registry): LintFinding[] {
  const findings: LintFinding[] = [];
  const sourceOk = passed(issues, ['source']);
  const sinkOk = passed(issues, ['sink']);
  // A list of stages that is no list has no chain to check.
  if (!Array.isArray(p.transforms)) return findings;
  const transforms: readonly unknown[] = p.transforms;
  // Kinds of records are declared by a stage's type alone, so a stage whose options failed its
  // schema is checked all the same. A stage of no registered type (misspelt, or no type at all)
  // ends the check there: what it would emit is unknown.
  findings.push(...checkStageKinds({ source: { type: typeOf(p.source) }, transforms: transforms.map((t) => ({ type: typeOf(t) })), sink: { type: typeOf(p.sink) } }, registry));
  const source = p.source as ComponentConfig;
  const sink = p.sink as ComponentConfig;
  // The sink against the dataset reads both configs: only when both passed their schemas.
  if (sourceOk && sinkOk) {
    for (const f of sinkDatasetFindings(registry, source, sink)) findings.push({ path: ['sink', ...f.path], message: f.message });
  }
  // Decimal types read the configs (defaults filled in). A sink that failed its schema leaves no
  // type to compare with; a transform that failed its own is skipped (it stands in with its type
  // only, so the others keep their index); a source of no registered type leaves the decimal
  // columns of its dataset unknown.
  const sourceDef = findDefinition(registry, 'source', typeOf(p.source)) as SourceDefinition | undefined;
  if (sinkOk && sourceDef !== undefined) {
    const emits = sourceDef.emits;
    const columns = Object.hasOwn(RECORD_KINDS, emits) ? DATASET_DECIMAL_COLUMNS[RECORD_KINDS[emits as RecordKind].dataset] : undefined;
    const checked = transforms.map((t, i) => (passed(issues, ['transforms', i]) ? (t as ComponentConfig) : { type: String(typeOf(t)) }));
    findings.push(...checkDecimalTypes({ transforms: checked, sink, ...(columns ? { columns } : {}) }));
  }
  return findings;
}
