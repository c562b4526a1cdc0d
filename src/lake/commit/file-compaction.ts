/**
 * What compacting several disjoint files of one partition into one needs besides their batches:
 * the union of their key ranges, their merged key-value metadata, and a check that a decoded file
 * still has the dataset's column types (so its buffers can be taken as they are).
 */
import type { Schema } from 'apache-arrow';
import { compareOrder, type Order } from '../datasets/dataset-spec.js';

/** The metadata key whose value lists every endpoint the rows came from, comma-separated. */
const SOURCE_ENDPOINT = 'quotelake.source_endpoint';

/** Same field names, order and types (nullability and metadata aside). */
export function sameColumnTypes(a: Schema, b: Schema): boolean {
  if (a.fields.length !== b.fields.length) return false;
  return a.fields.every((f, i) => f.name === b.fields[i]!.name && String(f.type) === String(b.fields[i]!.type));
}

/** Per group, the lowest start and the highest end over all files. */
export function unionRanges(all: readonly Readonly<Record<string, readonly [Order, Order]>>[]): Record<string, [Order, Order]> {
  const out: Record<string, [Order, Order]> = {};
  for (const ranges of all) {
    for (const [group, [lo, hi]] of Object.entries(ranges)) {
      const r = out[group];
      if (r === undefined) out[group] = [lo, hi];
      else {
        if (compareOrder(lo, r[0]) < 0) r[0] = lo;
        if (compareOrder(hi, r[1]) > 0) r[1] = hi;
      }
    }
  }
  return out;
}

/**
 * One file's metadata for rows of several: the source endpoints are united (sorted, as a single
 * file lists them); every other key is the same in every file of a run and kept as it is.
 */
export function mergeFileMetadata(all: readonly ReadonlyMap<string, string>[]): Map<string, string> {
  const out = new Map<string, string>();
  const endpoints = new Set<string>();
  for (const metadata of all) {
    for (const [key, value] of metadata) {
      if (key === SOURCE_ENDPOINT) {
        for (const e of value.split(',')) if (e !== '') endpoints.add(e);
      } else if (!out.has(key)) out.set(key, value);
    }
  }
  if (endpoints.size > 0) out.set(SOURCE_ENDPOINT, [...endpoints].sort().join(','));
  return out;
}
