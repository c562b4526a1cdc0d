/**
 * Splits a batch that is too big for the sink into pieces bounded by rows and estimated bytes, so a
 * source that returns one huge page cannot make the sink buffer without limit.
 */
import type { Batch } from '../core/component.js';
import { laneOf, lazyRows } from '../core/lazy-rows.js';

const SAMPLE = 16;

function recordBytes(record: unknown): number {
  try {
    const text = JSON.stringify(record, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return text === undefined ? 8 : text.length;
  } catch {
    return 256;
  }
}

/** Average size of a record, estimated from an even sample (cheap for big batches). */
export function estimateRecordBytes(records: readonly unknown[]): number {
  if (records.length === 0) return 0;
  const step = Math.max(1, Math.floor(records.length / SAMPLE));
  let total = 0;
  let n = 0;
  for (let i = 0; i < records.length && n < SAMPLE; i += step, n++) total += recordBytes(records[i]);
  return Math.max(1, Math.ceil(total / n));
}

/** Margin on a two-record glance before a batch is passed whole without the full sample. */
const GLANCE_MARGIN = 16;

/**
 * Whether a batch is far below `maxBytes` by two of its records (the first and the middle one): a
 * page of 500 K-lines is about 150 KB against a 64 MiB bound, and sampling 16 of them per page was a
 * percent of a backfill's CPU. Anything closer gets the full estimate.
 */
function fitsAtAGlance(records: readonly unknown[], maxBytes: number): boolean {
  if (records.length === 0) return true;
  const glance = Math.max(recordBytes(records[0]), recordBytes(records[records.length >> 1]));
  return records.length * glance * GLANCE_MARGIN <= maxBytes;
}

export interface ChunkLimits {
  readonly maxRows: number;
  readonly maxBytes: number;
}

/**
 * The pieces of `batch`, in order. Only the last piece carries the checkpoint (the stream's position
 * moves only once the whole source batch is in) and settledFrom (the batch's own rows may lie above
 * it). `nextSeq` numbers the pieces.
 */
export function rechunk<T>(batch: Batch<T>, limits: ChunkLimits, nextSeq: () => number): Batch<T>[] {
  const { records } = batch;
  // Records with a lane (lazy-rows.ts) are weighed by it: a sample would make every record.
  const lane = laneOf(records);
  const laneBytes = lane?.rowBytes;
  const fits = laneBytes !== undefined ? records.length * laneBytes <= limits.maxBytes : fitsAtAGlance(records, limits.maxBytes);
  if (records.length <= limits.maxRows && fits) return [{ ...batch, seq: nextSeq() }];
  const perRecord = laneBytes ?? estimateRecordBytes(records);
  const byBytes = perRecord === 0 ? records.length : Math.max(1, Math.floor(limits.maxBytes / perRecord));
  const size = Math.max(1, Math.min(limits.maxRows, byBytes));
  if (records.length <= size) return [{ ...batch, seq: nextSeq() }];
  const pieces: Batch<T>[] = [];
  for (let start = 0; start < records.length; start += size) {
    const end = Math.min(records.length, start + size);
    const last = end === records.length;
    // A lane that can be cut goes with each piece, so a split batch stays columnar.
    const slice = lane?.slice !== undefined ? lazyRows(end - start, () => records.slice(start, end), lane.slice(start, end)) : records.slice(start, end);
    // The checkpoint and settledFrom speak of what follows the whole batch: the last piece only.
    pieces.push(last ? { ...batch, seq: nextSeq(), records: slice } : { stream: batch.stream, seq: nextSeq(), records: slice });
  }
  return pieces;
}
