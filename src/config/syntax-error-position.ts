/**
 * Where a JS pipeline module's syntax error is. Node's SyntaxError from `import()` carries no line
 * or column (its printer finds them through an internal field), so on that error only, `node
 * --check` reads the file again in a child process and its report gives the line and the caret.
 */
import { spawnSync } from 'node:child_process';

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export function syntaxErrorPosition(file: string): SourcePosition | undefined {
  const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 10_000, windowsHide: true });
  if (r.status === 0 || typeof r.stderr !== 'string') return undefined;
  return positionInCheckReport(r.stderr);
}

/** `<file>:<line>`, the source line, then a caret under the column (Node's `--check` report). */
export function positionInCheckReport(report: string): SourcePosition | undefined {
  const lines = report.split(/\r?\n/);
  const at = /:(\d+)$/.exec(lines[0] ?? '');
  const caret = (lines[2] ?? '').indexOf('^');
  if (!at || caret < 0) return undefined;
  return { line: Number(at[1]), column: caret + 1 };
}
