/**
 * A source's `settledFrom` (see Batch) from its series': each series' batches say below which
 * instant that series' later rows lie; the source's later rows lie below the largest of those, once
 * every series has said it. Until then, or while any series' latest batch says nothing, nothing is
 * settled and the batch goes on without the field.
 *
 * Batches are taken as the merge passes them on, and a series' bound covers its batches still held
 * ahead in the merge as well as those it has yet to read, so the bound is sound whatever the order
 * the merge chose.
 */
import type { Batch } from '../../core/component.js';

export async function* settledAcross<T>(batches: AsyncIterable<Batch<T>>, seriesCount: number): AsyncGenerator<Batch<T>> {
  /** The bound of each series' latest batch (Infinity: it said nothing). */
  const bounds = new Map<string, number>();
  let top = -Infinity;
  let topStream: string | undefined;
  for await (const batch of batches) {
    const bound = batch.settledFrom ?? Infinity;
    const before = bounds.get(batch.stream);
    bounds.set(batch.stream, bound);
    if (bound >= top) {
      top = bound;
      topStream = batch.stream;
    } else if (batch.stream === topStream && before !== undefined && bound < before) {
      // The series that held the top moved down: the largest is looked for again.
      [top, topStream] = highest(bounds);
    }
    const settled = bounds.size < seriesCount ? Infinity : top;
    if (settled === batch.settledFrom) yield batch;
    else if (settled === Infinity) yield withoutSettled(batch);
    else yield { ...batch, settledFrom: settled };
  }
}

function highest(bounds: ReadonlyMap<string, number>): [number, string | undefined] {
  let top = -Infinity;
  let at: string | undefined;
  for (const [stream, b] of bounds) {
    if (b > top) {
      top = b;
      at = stream;
    }
  }
  return [top, at];
}

function withoutSettled<T>(batch: Batch<T>): Batch<T> {
  if (batch.settledFrom === undefined) return batch;
  const { settledFrom: _series, ...rest } = batch;
  return rest;
}
