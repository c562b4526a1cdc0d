/**
 * Where a failed command's --json document goes. `run` sends it to stderr when stdout carries
 * NDJSON data (a reader such as jq or DuckDB takes every stdout line for a row); a failure the
 * command does not report itself (a bad --codes, a metrics port in use) is marked here so the
 * command line's last resort (main.ts) sends its document there too.
 */
const toStderr = new WeakSet<object>();

/** Marks `error` as a failure of a command whose stdout carries data. */
export function sendJsonDocToStderr(error: unknown): void {
  if (typeof error === 'object' && error !== null) toStderr.add(error);
}

export function jsonDocGoesToStderr(error: unknown): boolean {
  return typeof error === 'object' && error !== null && toStderr.has(error);
}

/**
 * `run --format ndjson` on the command line: its stdout is for data, also when the command line
 * itself is refused before `run` starts (an unknown option).
 */
export function argvSendsNdjsonToStdout(argv: readonly string[]): boolean {
  if (argv.find((w) => !w.startsWith('-')) !== 'run') return false;
  return argv.some((w, i) => w === '--format=ndjson' || (w === '--format' && argv[i + 1] === 'ndjson'));
}
