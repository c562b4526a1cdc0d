/**
 * The yaml library's syntax errors as a person fixes them. A tab that indents a line came with two
 * more errors about the same line ("Nested mappings are not allowed in compact mappings", "Implicit
 * keys need to be on a single line") that only follow from it; and a key written twice said "Map keys
 * must be unique" without naming the key or where it was first.
 */
import { isScalar, visit, type Document, type LineCounter, type YAMLError } from 'yaml';
import type { ConfigProblem } from './pipeline-config-error.js';

/** The yaml library's message in the words of a pipeline file, without its position and excerpt. */
function syntaxMessage(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') {
    return 'a second YAML document starts here (after a "---" line): a pipeline file holds one; put each pipeline in a file of its own';
  }
  // The library appends "at line L, column C:" and a code excerpt; we give the position ourselves.
  return message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '').trim();
}

/** The key written twice at `offset`, and the line of its first writing in the same mapping. */
function duplicateKey(doc: Document, lineCounter: LineCounter, offset: number): { key: string; firstLine: number } | undefined {
  let found: { key: string; firstLine: number } | undefined;
  visit(doc, {
    Map(_, map) {
      const keys = map.items.map((p) => p.key).filter(isScalar);
      const twice = keys.find((k) => k.range?.[0] === offset);
      if (twice === undefined) return undefined;
      const first = keys.find((k) => k.value === twice.value && k !== twice);
      if (first?.range) found = { key: String(twice.value), firstLine: lineCounter.linePos(first.range[0]).line };
      return visit.BREAK;
    },
  });
  return found;
}

export function yamlSyntaxProblems(doc: Document, lineCounter: LineCounter): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const tabLines = new Set<number>();
  for (const e of doc.errors as YAMLError[]) {
    const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
    if (tabLines.has(pos.line)) continue;
    let message = `YAML syntax error: ${syntaxMessage(e.code, e.message)}`;
    if (e.code === 'TAB_AS_INDENT') {
      tabLines.add(pos.line);
      message = 'YAML syntax error: a tab indents this line, and YAML indents with spaces only: replace the tab with spaces (as many as the lines around it use)';
    } else if (e.code === 'DUPLICATE_KEY') {
      const dup = duplicateKey(doc, lineCounter, e.pos[0]);
      if (dup !== undefined) message = `YAML syntax error: key "${dup.key}" is written twice in this mapping (first at line ${dup.firstLine}): keep one`;
    }
    problems.push({ message, line: pos.line, column: pos.col });
  }
  return problems;
}
