/**
 * What compacting several files of one partition into one needs besides their batches: their
 * merged key-value metadata (provenance of the merging run,
 * endpoints and series united), and a check that a decoded file still has the dataset's column
 * types (so its buffers can be taken as they are).
 */
import type { Schema } from 'apache-arrow';
import { PROVENANCE_KEYS } from '../file-provenance.js';
import { formatSeries, parseSeries, SERIES_KEY, unionSeries, type SeriesMap } from '../series-stats.js';

/** The metadata key whose value lists every endpoint the rows came from, comma-separated. */
export const SOURCE_ENDPOINT = 'quotelake.source_endpoint';

/** Same field names, order and types (nullability and metadata aside). */
export function sameColumnTypes(a: Schema, b: Schema): boolean {
  if (a.fields.length !== b.fields.length) return false;
  return a.fields.every((f, i) => f.name === b.fields[i]!.name && String(f.type) === String(b.fields[i]!.type));
}

/**
 * One file's metadata for the rows of several (a compaction or merge), written by the run that
 * merges: its `provenance` (fileProvenance(dataset, runId): created_by, version, run id, layout)
 * replaces the files' own; the source endpoints are united (sorted, as a single file lists them);
 * `quotelake.series` is united (rows added: right for disjoint files; a merge that drops duplicate
 * keys passes the `series` of the rows it keeps), and left out when a file lacks it (0.1.0 files);
 * every other key (`quotelake.ts`, `quotelake.bar_time`) describes the dataset and is kept as the
 * first file has it.
 */
export function mergeFileMetadata(all: readonly ReadonlyMap<string, string>[], provenance: ReadonlyMap<string, string>, series?: SeriesMap): Map<string, string> {
  const out = new Map<string, string>(provenance);
  const endpoints = new Set<string>();
  const stats: SeriesMap[] = [];
  let seriesComplete = true;
  for (const metadata of all) {
    const own = parseSeries(metadata.get(SERIES_KEY));
    if (own === undefined) seriesComplete = false;
    else stats.push(own);
    for (const [key, value] of metadata) {
      if (key === SOURCE_ENDPOINT) {
        for (const e of value.split(',')) if (e !== '') endpoints.add(e);
      } else if (key !== SERIES_KEY && !PROVENANCE_KEYS.has(key) && !out.has(key)) out.set(key, value);
    }
  }
  if (endpoints.size > 0) out.set(SOURCE_ENDPOINT, [...endpoints].sort().join(','));
  if (series !== undefined) out.set(SERIES_KEY, formatSeries(series));
  else if (seriesComplete) out.set(SERIES_KEY, formatSeries(unionSeries(stats)));
  return out;
}
