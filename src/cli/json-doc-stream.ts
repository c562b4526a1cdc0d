/**
 * Where a failed command's --json document goes. `run` sends it to stderr when stdout carries
 * NDJSON data (a reader such as jq or DuckDB takes every stdout line for a row); a failure the
 * command does not report itself (a bad --codes, a metrics port in use) is marked here so the
 * command line's last resort (main.ts) sends its document there too.
 */
import { readFileSync } from 'node:fs';
import { ndjsonSinkToStdout } from '../core/stdout-sink.js';
import { commandIndex } from './command-word.js';
import { resolvePipelineRef } from './pipeline-ref.js';

const toStderr = new WeakSet<object>();

/** Marks `error` as a failure of a command whose stdout carries data. */
export function sendJsonDocToStderr(error: unknown): void {
  if (typeof error === 'object' && error !== null) toStderr.add(error);
}

export function jsonDocGoesToStderr(error: unknown): boolean {
  return typeof error === 'object' && error !== null && toStderr.has(error);
}

/**
 * `run --format ndjson`, or a run of a pipeline file whose sink is NDJSON on stdout (the shipped
 * trades-ndjson): its stdout is for data, also when the command line itself is refused before `run`
 * starts (an unknown option, a number option given text), which is before any pipeline is loaded.
 */
export async function argvSendsNdjsonToStdout(argv: readonly string[], cwd: string = process.cwd()): Promise<boolean> {
  const at = commandIndex(argv);
  if (at < 0 || argv[at] !== 'run') return false;
  const format = formatGiven(argv);
  // --format replaces the file's sink: it alone decides.
  if (format !== undefined) return format === 'ndjson';
  // Loaded here only: a failed command with --json is the one that needs a YAML reader this early.
  const yaml = await import('yaml');
  // The bundle hands a CommonJS build of yaml to a dynamic import as its default export only.
  const { parse } = typeof yaml.parse === 'function' ? yaml : (yaml as unknown as { default: typeof yaml }).default;
  return argv.slice(at + 1).some((w) => !w.startsWith('-') && sinksToStdout(w, cwd, parse));
}

function formatGiven(argv: readonly string[]): string | undefined {
  for (const [i, w] of argv.entries()) {
    if (w.startsWith('--format=')) return w.slice('--format='.length);
    if (w === '--format') return argv[i + 1];
  }
  return undefined;
}

/**
 * Whether a word of the command line names a YAML pipeline whose sink is NDJSON on stdout (a word
 * that is an option's value, or no pipeline at all, is not). A .ts/.js module is not run to find out.
 */
function sinksToStdout(word: string, cwd: string, parse: (text: string) => unknown): boolean {
  let path: string;
  try {
    path = resolvePipelineRef(word, cwd).path;
  } catch {
    return false;
  }
  if (!/\.ya?ml$/.test(path)) return false;
  try {
    const doc = parse(readFileSync(path, 'utf8')) as { sink?: { type?: unknown; path?: unknown } } | null;
    return ndjsonSinkToStdout(doc?.sink);
  } catch {
    return false;
  }
}
