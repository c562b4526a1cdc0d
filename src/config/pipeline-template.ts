/**
 * The commented pipeline `quotelake init` writes: one source (set from its definition's first
 * example), the transform its records need, and a sink. Every key is explained by the description the
 * JSON Schema carries (the one editors and the README reference show), and a key left at its default
 * is written commented out with that default, so the file documents itself and cannot drift from the
 * validator.
 */
import { stringify } from 'yaml';
import type { ComponentDefinition, SourceDefinition } from '../core/definition.js';
import { pipelineJsonSchema } from './pipeline-json-schema.js';
import type { Registry } from './pipeline-schema.js';

interface JsonSchema {
  readonly const?: unknown;
  readonly default?: unknown;
  readonly description?: string;
  readonly properties?: Record<string, JsonSchema>;
  readonly required?: readonly string[];
  readonly oneOf?: readonly JsonSchema[];
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
}

export interface TemplateChoice {
  readonly name: string;
  readonly source: string;
  readonly sink: string;
  /** Path of pipeline.schema.json relative to the written file, for the editor directive; none when absent. */
  readonly schemaPath?: string | undefined;
}

const WIDTH = 100;

/** A value as one line of YAML flow style: `[BTCUSDT, EURUSD]`, `{ precision: 38, scale: 18 }`. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${k}: ${flow(v)}`).join(', ')} }`;
  }
  return stringify(value).trimEnd();
}

/** `text` as comment lines of at most WIDTH columns, each starting with `prefix`. */
function comment(prefix: string, text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && prefix.length + line.length + word.length + 1 > WIDTH) {
      lines.push(`${prefix}${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${prefix}${line}`);
  return lines;
}

/**
 * The keys of a mapping: each described, set when `values` has it, else commented out with its
 * default. `indent` is the key's indentation; `off` comments every line (a section left out).
 */
function keys(schema: JsonSchema, values: Record<string, unknown>, indent: string, off = false, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const lead = off ? `# ${indent}` : indent;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (skip.includes(key)) continue;
    const required = schema.required?.includes(key) ?? false;
    const choices = prop.enum ? ` One of: ${prop.enum.map(String).join(', ')}.` : '';
    const description = `${prop.description ?? ''}${choices}${required ? ' Required.' : ''}`.trim();
    if (description !== '') out.push(...comment(`${lead}# `, description));
    if (Object.hasOwn(values, key) && !off) out.push(`${indent}${key}: ${flow(values[key])}`);
    else out.push(`${off ? '' : indent}# ${off ? indent : ''}${key}:${prop.default === undefined ? '' : ` ${flow(prop.default)}`}`);
  }
  return out;
}

function variant(union: JsonSchema | undefined, type: string): JsonSchema {
  const found = (union?.oneOf ?? union?.items?.oneOf ?? []).find((v) => v.properties?.type?.const === type);
  if (found === undefined) throw new TypeError(`no component of type "${type}" in the pipeline schema`);
  return found;
}

/**
 * The transform that turns the source's raw records into typed rows the sink takes (exact decimals,
 * UTC instants): wanted even by a sink that takes raw records too (ndjson), as the shipped pipelines do.
 */
function transformFor(registry: Registry, source: SourceDefinition, sink: ComponentDefinition): ComponentDefinition | undefined {
  const takes = sink.kind === 'sink' ? (sink.takes as readonly string[]) : [];
  return registry.find((d) => d.kind === 'transform' && takes.includes((d.maps as Record<string, string | undefined>)[source.emits as string] ?? ''));
}

/** The YAML text of a new pipeline; throws TypeError for a source or sink type the registry lacks. */
export function pipelineTemplate(registry: Registry, choice: TemplateChoice): string {
  const source = registry.find((d) => d.kind === 'source' && d.type === choice.source) as SourceDefinition | undefined;
  const sink = registry.find((d) => d.kind === 'sink' && d.type === choice.sink);
  if (source === undefined || sink === undefined) throw new TypeError(`unknown source "${choice.source}" or sink "${choice.sink}"`);
  const transform = transformFor(registry, source, sink);
  const root = pipelineJsonSchema(registry) as JsonSchema;
  const props = root.properties ?? {};
  const example = (source.examples[0] ?? {}) as Record<string, unknown>;
  const sinkExample = (sink.examples[0] ?? {}) as Record<string, unknown>;
  const { name } = choice;
  const out: string[] = [];
  if (choice.schemaPath !== undefined) out.push(`# yaml-language-server: $schema=${choice.schemaPath}`);
  // The first comment line is the description `quotelake list` shows.
  out.push(`# ${choice.source} into ${choice.sink}: ${source.summary}`);
  out.push('#');
  out.push(
    ...comment(
      '# ',
      `Written by "quotelake init". Check it with "quotelake validate ${name}", see its requests and share of the daily quota with ` +
        `"quotelake plan ${name}", run it with "quotelake run ${name}". A key commented out shows its default: uncomment it to change it. ` +
        'Command-line flags and QUOTELAKE_* environment variables win over the keys of this file.',
    ),
  );
  out.push('', ...comment('# ', props.name?.description ?? ''), `name: ${flow(name)}`, '');
  out.push(...comment('# ', `${props.service?.description ?? ''} Left out, the QUOTELAKE_* variables or flags decide; with no base URL and no token, quotelake runs against its built-in emulator. Uncomment "service:" with the keys you set.`));
  out.push('# service:', ...keys(props.service ?? {}, {}, '  ', true), '');
  out.push(...comment('# ', `${props.source?.description ?? ''} ${choice.source}: ${source.summary}`), 'source:', `  type: ${choice.source}`);
  out.push(...keys(variant(props.source, choice.source), example, '  ', false, ['type']), '');
  if (transform !== undefined) {
    out.push(...comment('# ', `${props.transforms?.description ?? ''} ${transform.type}: ${transform.summary}`), 'transforms:', `  - type: ${transform.type}`);
    out.push(...keys(variant(props.transforms, transform.type), {}, '    ', false, ['type']), '');
  }
  out.push(...comment('# ', `${props.sink?.description ?? ''} ${choice.sink}: ${sink.summary}`), 'sink:', `  type: ${choice.sink}`);
  out.push(...keys(variant(props.sink, choice.sink), sinkExample, '  ', false, ['type']), '');
  out.push(...comment('# ', `${props.options?.description ?? ''} Uncomment "options:" with the keys you set.`));
  out.push('# options:', ...keys(props.options ?? {}, {}, '  ', true));
  return `${out.join('\n')}\n`;
}
