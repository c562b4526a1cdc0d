/**
 * Reads a pipeline from YAML text or a plain object (definePipeline), validates it with the one
 * schema, and reports every problem at its file:line:column.
 */
import { withoutExtensionKeys } from './extension-keys.js';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, visit, type Document, type Node } from 'yaml';
import { aliasProblems, isMergeKey } from './alias-problems.js';
import { describeIssue, type IssuePath, type PipelineSyntax } from './describe-issue.js';
import { knownKeysAt } from './known-keys.js';
import { PipelineConfigError, type ConfigProblem } from './pipeline-config-error.js';
import { buildPipelineSchema, type Pipeline, type Registry } from './pipeline-schema.js';
import { tightestBounds } from './tightest-bounds.js';
import { yamlSyntaxProblems } from './yaml-syntax-problems.js';
import { oneIssuePerValue } from './one-issue-per-value.js';

export { PipelineConfigError, type ConfigProblem } from './pipeline-config-error.js';

/** The first line of the top comment block, skipping editor directives; '' when none. */
export function firstCommentLine(doc: Document): string {
  // Depending on blank lines the top comment hangs on the document, its map, or the first key.
  const contents = doc.contents as (Node & { commentBefore?: string | null }) | null;
  const firstKey = isMap(contents) ? (contents.items[0]?.key as { commentBefore?: string | null } | undefined) : undefined;
  const block = doc.commentBefore ?? contents?.commentBefore ?? firstKey?.commentBefore ?? '';
  for (const raw of block.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('yaml-language-server:')) continue;
    return line;
  }
  return '';
}

/** The `<<` key of a mapping, if it has one. */
function mergeKeyOf(map: { items: { key: unknown }[] }): Node | undefined {
  return map.items.find((p) => isMergeKey(p.key))?.key as Node | undefined;
}

/** The node at `path` or, if it is absent, the deepest ancestor that exists; `atKey` picks the key node. */
function locate(doc: Document, path: IssuePath, atKey: boolean): Node | undefined {
  let node: unknown = doc.contents;
  let found: Node | undefined = (doc.contents as Node | null) ?? undefined;
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === part);
      // A key the mapping does not write came from a merge key (`<<: *common`): its line says where.
      if (!pair) return mergeKeyOf(node) ?? found;
      if (last && atKey && pair.key && typeof pair.key === 'object') return pair.key as Node;
      node = pair.value;
    } else if (isSeq(node) && typeof part === 'number') {
      node = node.items[part];
    } else {
      return found;
    }
    if (node && typeof node === 'object' && 'range' in node) found = node as Node;
    else return found;
  }
  return found;
}

function validate(
  input: unknown,
  registry: Registry,
  position: (path: IssuePath, atKey: boolean) => { line?: number; column?: number },
  file: string | undefined,
  syntax: PipelineSyntax,
  /** Problems found before the schema (aliases without anchor), said with its own. */
  found: readonly ConfigProblem[] = [],
): Pipeline {
  const schema = buildPipelineSchema(registry);
  const result = schema.safeParse(input);
  if (result.success && found.length === 0) return result.data;
  const problems: ConfigProblem[] = [...found];
  if (!result.success) {
    const knownKeys = (path: IssuePath) => knownKeysAt(schema, input, path);
    for (const issue of oneIssuePerValue(tightestBounds(result.error.issues))) {
      for (const d of describeIssue(issue, input, knownKeys, syntax)) {
        const problem = { message: d.message, ...position(d.path, d.atKey) };
        // The null read for an alias fails where the alias is: that problem is the alias's, said once.
        if (!found.some((f) => f.line === problem.line && f.column === problem.column)) problems.push(problem);
      }
    }
  }
  // Report in file order so the first message is the first problem a reader meets.
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  throw new PipelineConfigError(file, problems);
}

export interface ParseOptions {
  readonly registry: Registry;
  /** Shown in messages, e.g. `pipelines/kline-backfill.yaml`. */
  readonly file?: string;
}

/**
 * How a pipeline's YAML becomes data, whatever `%YAML` directive the file starts with: the YAML 1.2
 * core schema (a `%YAML 1.1` file would otherwise get the 1.1 schema, where `since: 2026-11-27`
 * becomes a Date and `on` a boolean), with YAML 1.1 tags such as `!!timestamp 2026-01-01` or
 * `!!binary` left the text they wrap instead of a Date or bytes that no setting takes.
 */
const YAML_DATA = {
  schema: 'core',
  resolveKnownTags: false,
  // `<<: *defaults` (YAML 1.1 merge keys) shares settings between parts of a file, as most YAML tools allow.
  merge: true,
} as const;

/** Upper bound of alias expansions (`*name`), against a file of nested aliases that expands to gigabytes. */
const MAX_ALIAS_EXPANSIONS = 100;

/**
 * The document as plain data, with the problems of its aliases. The yaml library finds some
 * problems only here, as an error without a position: an alias without anchor or a merge key
 * without a mapping (each reported where it is), and aliases that expand past the bound (reported
 * at the first alias). An alias without anchor is read as null, so the rest of the file is still
 * checked and every problem said in one pass; the others end the reading here.
 */
function documentValue(doc: Document, lineCounter: LineCounter, file: string | undefined): { value: unknown; aliasProblems: ConfigProblem[] } {
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS }), aliasProblems: [] };
  } catch (e) {
    const misplaced = e instanceof Error ? aliasProblems(doc, lineCounter) : [];
    if (misplaced.length > 0) {
      const value = valueWithAnchorlessAliasesNull(doc);
      if (value === undefined) throw new PipelineConfigError(file, misplaced);
      return { value, aliasProblems: misplaced };
    }
    if (!(e instanceof ReferenceError) || !/excessive alias/i.test(e.message)) throw e;
    let first: Node | undefined;
    visit(doc, {
      Alias(_, node) {
        first = node;
        return visit.BREAK;
      },
    });
    const pos = first?.range ? lineCounter.linePos(first.range[0]) : undefined;
    throw new PipelineConfigError(file, [
      {
        message: `its aliases (*name) expand to more than ${MAX_ALIAS_EXPANSIONS} copies of anchored values: write the values out, or anchor less deeply nested ones`,
        line: pos?.line,
        column: pos?.col,
      },
    ]);
  }
}

/**
 * The document's data with each alias that names no anchor before it read as null; undefined when
 * that does not make it readable (a merge key's problem, which leaves the mapping's keys unknown).
 */
function valueWithAnchorlessAliasesNull(doc: Document): unknown {
  const copy = doc.clone();
  visit(copy, {
    Alias(_, alias) {
      return alias.resolve(copy) === undefined ? new Scalar(null) : undefined;
    },
  });
  try {
    return copy.toJS({ maxAliasCount: MAX_ALIAS_EXPANSIONS });
  } catch {
    return undefined;
  }
}

/**
 * Where the value at `path` sits in a YAML pipeline's text (the deepest part present), for a
 * problem found after the file was read, such as a plans file it names that cannot be read.
 */
export function valuePosition(text: string, path: IssuePath): { line?: number; column?: number } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.startsWith('\uFEFF') ? text.slice(1) : text, { lineCounter, ...YAML_DATA });
  const node = locate(doc, path, false);
  if (!node?.range) return {};
  const pos = lineCounter.linePos(node.range[0]);
  return { line: pos.line, column: pos.col };
}

/** Parse and validate a YAML pipeline. Throws PipelineConfigError with file:line:column. */
export function parsePipelineYaml(text: string, options: ParseOptions): Pipeline {
  const lineCounter = new LineCounter();
  // A byte-order mark (Windows editors write one) is no column: positions on line 1 count as an editor shows them.
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const doc = parseDocument(source, {
    keepSourceTokens: true,
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
    ...YAML_DATA,
  });
  if (doc.errors.length > 0) {
    throw new PipelineConfigError(options.file, yamlSyntaxProblems(doc, lineCounter));
  }
  const { value, aliasProblems: aliasesFound } = documentValue(doc, lineCounter, options.file);
  const raw = withoutExtensionKeys(value);
  // A file that is one alias without anchor: that is its problem.
  if ((raw === null || raw === undefined) && aliasesFound.length > 0) throw new PipelineConfigError(options.file, aliasesFound);
  // An empty file (or one of comments only) reads as null: say so at its first line, with the way out.
  if (raw === null || raw === undefined) {
    throw new PipelineConfigError(options.file, [
      {
        message: `the file holds no pipeline (it is empty${source.trim() === '' ? '' : ' but for comments'}): a pipeline is a mapping with name, source and sink; "quotelake init <name>" writes one to start from`,
        line: 1,
        column: 1,
      },
    ]);
  }
  const position = (path: IssuePath, atKey: boolean) => {
    const node = locate(doc, path, atKey);
    if (!node?.range) return {};
    const pos = lineCounter.linePos(node.range[0]);
    return { line: pos.line, column: pos.col };
  };
  const pipeline = validate(raw, options.registry, position, options.file, 'yaml', aliasesFound);
  if (pipeline.description === undefined) {
    const line = firstCommentLine(doc);
    if (line !== '') return { ...pipeline, description: line };
  }
  return pipeline;
}

/** Validate a pipeline given as an object (from definePipeline()). */
export function validatePipeline(input: unknown, options: ParseOptions): Pipeline {
  return validate(input, options.registry, () => ({}), options.file, 'code');
}
