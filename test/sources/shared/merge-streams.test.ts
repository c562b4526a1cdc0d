import { describe, expect, it } from 'vitest';
import { mergeStreams } from '../../../src/sources/shared/merge-streams.js';

describe('mergeStreams', () => {
  it('yields every stream\'s batches, each stream in its own order', async () => {
    async function* stream(name: string, n: number) {
      for (let i = 0; i < n; i++) {
        await Promise.resolve();
        yield `${name}${i}`;
      }
    }
    const out: string[] = [];
    for await (const v of mergeStreams([() => stream('a', 3), () => stream('b', 2)], 2)) out.push(v);
    expect(out.filter((v) => v.startsWith('a'))).toEqual(['a0', 'a1', 'a2']);
    expect(out.filter((v) => v.startsWith('b'))).toEqual(['b0', 'b1']);
  });

  it('a consumer that stops asking leaves no unhandled rejection when a pending read then fails', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let fail: (e: Error) => void = () => undefined;
    async function* failing() {
      yield 'first';
      // The page in flight when the run is aborted: it fails after the consumer stopped asking.
      await new Promise<void>((_resolve, reject) => {
        fail = reject;
      });
      yield 'never';
    }
    try {
      const merged = mergeStreams([failing], 1);
      expect((await merged.next()).value).toBe('first');
      // The consumer stops here (an abort): it never asks again, and the stream's next read,
      // already started, fails.
      await new Promise((resolve) => setImmediate(resolve));
      fail(Object.assign(new Error('aborted'), { code: 'QL_ABORTED' }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reads up to readAhead batches ahead of a busy consumer, and no further', async () => {
    let produced = 0;
    async function* walk() {
      for (let i = 0; i < 10; i++) {
        produced = i + 1;
        yield i;
      }
    }
    const merged = mergeStreams([walk], 1, 2);
    expect((await merged.next()).value).toBe(0);
    // While the consumer works on batch 0, the walk goes on: batches 1 and 2 are read, then it waits.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(produced).toBe(3);
    expect((await merged.next()).value).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(produced).toBe(4);
    const rest: number[] = [];
    for await (const v of merged) rest.push(v);
    expect(rest).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a failing stream ends the merge with its error; the others are stopped', async () => {
    let returned = false;
    async function* slow() {
      try {
        for (let i = 0; ; i++) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield `s${i}`;
        }
      } finally {
        returned = true;
      }
    }
    async function* broken() {
      yield 'b0';
      throw new Error('page failed');
    }
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const v of mergeStreams([slow, broken], 2)) seen.push(v);
      })(),
    ).rejects.toThrow('page failed');
    expect(seen).toContain('b0');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(returned).toBe(true);
  });
});

