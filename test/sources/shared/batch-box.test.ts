import { describe, expect, it } from 'vitest';
import { BatchBox, unboxed } from '../../../src/sources/shared/batch-box.js';

describe('BatchBox: a batch handed out once, so the generator that boxed it keeps nothing of it', () => {
  it('peeks without taking, takes once, and holds nothing after', () => {
    const batch = { stream: 's', seq: 1, records: [1, 2, 3] };
    const box = new BatchBox(batch);
    expect(box.peek()).toBe(batch);
    expect(box.take()).toBe(batch);
    expect(() => box.take()).toThrow('BatchBox: looked into after its batch was taken');
    expect(() => box.peek()).toThrow('BatchBox: looked into after its batch was taken');
  });

  it('unboxed passes the batches on in order, each box emptied as its batch goes', async () => {
    const boxes = [0, 1, 2].map((seq) => new BatchBox({ stream: 's', seq, records: [seq] }));
    async function* source() {
      yield* boxes;
    }
    const seen: number[] = [];
    for await (const batch of unboxed(source())) {
      seen.push(batch.seq);
      expect(() => boxes[batch.seq]!.peek()).toThrow();
    }
    expect(seen).toEqual([0, 1, 2]);
  });
});
