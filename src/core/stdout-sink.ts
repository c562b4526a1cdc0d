/**
 * Where an ndjson sink writes to stdout: its `path` left out (the default), `stdout`, or `-` as
 * shell tools write it. One rule for the sink, the run's settings and the command line's last
 * resort, which reads a pipeline file's sink before any schema has parsed it.
 */
export function isStdoutPath(path: string): boolean {
  return path === 'stdout' || path === '-';
}

/** A sink's config, parsed or as a file holds it, that writes NDJSON records to stdout. */
export function ndjsonSinkToStdout(sink: { readonly type?: unknown; readonly path?: unknown } | null | undefined): boolean {
  return sink?.type === 'ndjson' && (sink.path === undefined || (typeof sink.path === 'string' && isStdoutPath(sink.path)));
}
