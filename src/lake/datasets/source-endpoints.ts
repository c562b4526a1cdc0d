/**
 * `quotelake.source_endpoint` of a file: every endpoint its rows were asked from, as the client
 * called it (e.g. `/quote-b-api/kline`), sorted and comma-separated; `fallback` when no row says
 * (rows built by hand, or read back from a file: a merge takes the files' own value instead).
 */
export function sourceEndpoints(rows: readonly { readonly source?: string | undefined }[], fallback: string): string {
  // One pass, no per-row array: nearly every row repeats the previous row's endpoint.
  const seen = new Set<string>();
  let last: string | undefined;
  for (let i = 0; i < rows.length; i++) {
    const s = rows[i]!.source;
    if (s !== last && typeof s === 'string') seen.add(s);
    last = s;
  }
  return seen.size > 0 ? [...seen].sort().join(',') : fallback;
}
