/**
 * Buffers of scanned pages (scanned-bar.ts), handed back once a page's bars have been copied into
 * the sink's columns and taken again by the next page of the same size class.
 *
 * Why: a backfill scans thousands of pages of about 100 KB each, and each one's buffer lived
 * outside the JavaScript heap until a collection freed it. The sink forces a young-generation
 * collection every few MB of pages to keep that memory down (partitioned-sink.ts, tookPage); a
 * buffer that comes back needs no collection to be freed, nor the allocator's zeroing of a fresh
 * one, so those collections now come half as often (for the answers' bodies alone).
 *
 * Bounded: at most `MAX_FREE_PER_SIZE` buffers wait per size (a few MB), about the pages a run has
 * in flight at once.
 */

/** Bars of a page's buffer are rounded up to a multiple of this, so pages of a walk share sizes. */
export const PAGE_BARS_STEP = 128;

/** Most free buffers kept per byte size. */
export const MAX_FREE_PER_SIZE = 32;

const free = new Map<number, ArrayBuffer[]>();

/** A buffer of exactly `bytes` bytes: one handed back, else a new (zeroed) one. Its contents are undefined. */
export function takePageBuffer(bytes: number): ArrayBuffer {
  return free.get(bytes)?.pop() ?? new ArrayBuffer(bytes);
}

/** Hand back a buffer nothing reads or writes any more. */
export function givePageBuffer(buffer: ArrayBuffer): void {
  let list = free.get(buffer.byteLength);
  if (list === undefined) free.set(buffer.byteLength, (list = []));
  if (list.length < MAX_FREE_PER_SIZE) list.push(buffer);
}

/** Free buffers waiting, all sizes (for tests). */
export function freePageBuffers(): number {
  let n = 0;
  for (const list of free.values()) n += list.length;
  return n;
}
