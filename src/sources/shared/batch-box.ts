/**
 * A batch handed out of a generator once: take() gives it and lets go of it.
 *
 * A suspended async generator keeps its whole register file (Ignition saves every register, not
 * only the live ones), and each `yield*` layer above it keeps the last result it passed on. A
 * series reader that yielded its batches itself therefore kept its last page (the records, the
 * wire bars and their strings) alive until the series was resumed, long after the sink had taken
 * the batch: with ten series open, ten pages outlived every scavenge, were promoted and died in the
 * old generation, about a fifth of a backfill's CPU in collections. A box that is emptied when the
 * batch is taken leaves those layers holding nothing.
 */
import type { Batch } from '../../core/component.js';

export class BatchBox<T> {
  #batch: Batch<T> | undefined;

  constructor(batch: Batch<T>) {
    this.#batch = batch;
  }

  /** The batch, still in the box (for a look at its checkpoint before it is taken). */
  peek(): Batch<T> {
    if (this.#batch === undefined) throw new Error('BatchBox: looked into after its batch was taken');
    return this.#batch;
  }

  /** The batch, once: the box holds nothing after. */
  take(): Batch<T> {
    const batch = this.peek();
    this.#batch = undefined;
    return batch;
  }
}

/** The batches of boxes, each taken as it is passed on. */
export async function* unboxed<T>(boxes: AsyncIterable<BatchBox<T>>): AsyncGenerator<Batch<T>> {
  for await (const box of boxes) yield box.take();
}
