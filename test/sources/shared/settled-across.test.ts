import { describe, expect, it } from 'vitest';
import type { Batch } from '../../../src/core/component.js';
import { settledAcross } from '../../../src/sources/shared/settled-across.js';

async function* of(batches: Batch<number>[]): AsyncGenerator<Batch<number>> {
  yield* batches;
}

const b = (stream: string, settledFrom?: number): Batch<number> => ({ stream, seq: 0, records: [1], ...(settledFrom === undefined ? {} : { settledFrom }) });

async function settled(batches: Batch<number>[], series: number): Promise<(number | undefined)[]> {
  const out: (number | undefined)[] = [];
  for await (const batch of settledAcross(of(batches), series)) out.push(batch.settledFrom);
  return out;
}

describe('settledAcross', () => {
  it('says nothing until every series has, then the largest of each series latest bound', async () => {
    expect(await settled([b('a', 900), b('b', 800), b('c', 950), b('a', 700), b('c', 600), b('b', 500), b('a', 400)], 3)).toEqual([undefined, undefined, 950, 950, 800, 700, 600]);
  });

  it('a series whose latest batch says nothing holds everything back until it says again', async () => {
    expect(await settled([b('a', 900), b('b', 800), b('a'), b('b', 700), b('a', 300)], 2)).toEqual([undefined, 900, undefined, undefined, 700]);
  });

  it('keeps the records and every other field; drops a series bound that the others do not allow', async () => {
    const out: Batch<number>[] = [];
    for await (const batch of settledAcross(of([{ ...b('a', 10), checkpoint: { stream: 'a', position: { n: 1 } } }, b('b', 20)]), 2)) out.push(batch);
    expect(out).toEqual([{ stream: 'a', seq: 0, records: [1], checkpoint: { stream: 'a', position: { n: 1 } } }, b('b', 20)]);
  });

  it('matches the largest over all series on a long random walk of many series', async () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const latest = new Map<string, number>();
    const walked = new Map<string, number>();
    const batches: Batch<number>[] = [];
    const want: (number | undefined)[] = [];
    for (let i = 0; i < 3000; i++) {
      const s = `s${Math.floor(rnd() * 12)}`;
      const bound = rnd() < 0.05 ? undefined : Math.floor((walked.get(s) ?? 1e6) - rnd() * 1000);
      if (bound !== undefined) walked.set(s, bound);
      batches.push(b(s, bound));
      latest.set(s, bound ?? Infinity);
      const top = Math.max(...latest.values());
      want.push(latest.size < 12 || top === Infinity ? undefined : top);
    }
    expect(await settled(batches, 12)).toEqual(want);
  });
});
