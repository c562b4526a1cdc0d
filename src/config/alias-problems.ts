/**
 * The aliases (`*name`) that name no anchor before them, and the merge keys (`<<`) whose value is no
 * mapping, of a parsed YAML pipeline, each at its line:column. The yaml library finds them only
 * when it turns the document into data, and then throws a bare Error without a position.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { formatPath, type IssuePath } from './describe-issue.js';
import type { ConfigProblem } from './pipeline-config-error.js';

/** A plain `<<` key, as the yaml library takes it for a merge (a quoted "<<" is an ordinary key). */
export function isMergeKey(key: unknown): boolean {
  if (!isScalar(key) || (key.type !== undefined && key.type !== 'PLAIN')) return false;
  const value = key.value;
  return value === '<<' || (typeof value === 'symbol' && value.description === '<<');
}

function kindOf(node: unknown): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return node.value === null ? 'null' : `the scalar ${JSON.stringify(String(node.value))}`;
  return 'nothing';
}

/** Every alias and merge-key problem of `doc`, in file order; [] when there is none. */
export function aliasProblems(doc: Document, lineCounter: LineCounter): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  // Anchors met so far, in document order: an alias takes the last one of its name before it.
  const anchors = new Map<string, Node>();
  const allAnchors = new Map<string, Node>();

  const at = (node: Node | undefined, path: IssuePath, message: string) => {
    const pos = node?.range ? lineCounter.linePos(node.range[0]) : undefined;
    const where = formatPath(path);
    problems.push({ message: `${where === '' ? '' : `${where}: `}${message}`, line: pos?.line, column: pos?.col });
  };

  const unresolved = (alias: Node & { source: string }, path: IssuePath) => {
    const later = allAnchors.get(alias.source);
    const laterPos = later?.range ? lineCounter.linePos(later.range[0]) : undefined;
    at(
      alias,
      path,
      laterPos !== undefined
        ? `alias *${alias.source} comes before its anchor &${alias.source} (line ${laterPos.line}): YAML reads the anchor first; move the anchored value above this alias`
        : `alias *${alias.source} names no anchor: mark the value to reuse with &${alias.source} above it, or correct the name`,
    );
  };

  /** The node an alias stands for here, or the node itself; undefined for an alias without anchor. */
  const target = (node: unknown): unknown => (isAlias(node) ? anchors.get(node.source) : node);

  const checkMerge = (value: unknown, path: IssuePath) => {
    const resolved = target(value);
    const sources = isSeq(resolved) ? resolved.items : [value];
    for (const source of sources) {
      if (isAlias(source) && !anchors.has(source.source)) continue; // reported as an alias already
      const merged = target(source);
      if (isMap(merged)) continue;
      const what = isAlias(source) ? `*${source.source} is ${kindOf(merged)}` : `this is ${kindOf(merged)}`;
      at((source as Node | undefined) ?? (value as Node | undefined), path, `the merge key "<<" takes a mapping, an alias of one (*name) or a list of them, but ${what}: merge a mapping, or write the keys out`);
    }
  };

  const walk = (node: unknown, path: IssuePath) => {
    if (isAlias(node)) {
      if (!anchors.has(node.source)) unresolved(node, path);
      return;
    }
    if (isMap(node) || isSeq(node) || isScalar(node)) {
      if (node.anchor) anchors.set(node.anchor, node);
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        walk(pair.key, path);
        const name = isScalar(pair.key) ? pair.key.value : undefined;
        const childPath = typeof name === 'string' || typeof name === 'number' ? [...path, name] : path;
        walk(pair.value, isMergeKey(pair.key) ? path : childPath);
        if (isMergeKey(pair.key)) checkMerge(pair.value, path);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => (isPair(item) ? walk(item.value, [...path, i]) : walk(item, [...path, i])));
    }
  };

  // A first pass for every anchor, so an alias above its anchor can say where the anchor is.
  const collect = (node: unknown) => {
    if (isMap(node) || isSeq(node) || isScalar(node)) {
      if (node.anchor && !allAnchors.has(node.anchor)) allAnchors.set(node.anchor, node);
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        collect(pair.key);
        collect(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) collect(isPair(item) ? item.value : item);
    }
  };
  collect(doc.contents);
  walk(doc.contents, []);
  return problems;
}
