import { describe, expect, it } from 'vitest';
import { mergeByFrontier } from '../../../src/sources/shared/merge-by-frontier.js';

interface Step {
  readonly name: string;
  /** How far the series is once this batch is read (larger = further along); undefined = not said. */
  readonly at: number | undefined;
}

const progressOf = (s: Step) => s.at;
const label = (s: Step) => `${s.name}@${s.at ?? '-'}`;
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A series yielding its steps, logging each read as it starts. */
function series(name: string, steps: readonly (number | undefined)[], log: string[]) {
  return async function* (): AsyncGenerator<Step> {
    for (const at of steps) {
      log.push(`${name}@${at ?? '-'}`);
      await Promise.resolve();
      yield { name, at };
    }
  };
}

describe('mergeByFrontier', () => {
  it('advances the series furthest behind first, an unstarted one before any, each series in its own order', async () => {
    const log: string[] = [];
    const makers = [series('a', [10, 20, 30], log), series('b', [5, 50], log), series('c', [15, 25, 35], log)];
    const out: string[] = [];
    for await (const s of mergeByFrontier(makers, { concurrency: 1, readAhead: 10, progressOf })) out.push(label(s));
    // a, b and c each start before any goes on; then always the one furthest behind (b at 5, a at
    // 10, c at 15, a at 20, c at 25, a at 30 ...); b, ahead at 50, comes back only when it is last.
    expect(log).toEqual(['a@10', 'b@5', 'c@15', 'b@50', 'a@20', 'c@25', 'a@30', 'c@35']);
    expect(out).toEqual(log);
  });

  it('series moving at different speeds stay together: the spread stays within a step or so', async () => {
    const log: string[] = [];
    // Six series covering 1, 2 or 3 units a batch (pages of different spans, short pages), two
    // reads at once, a consumer as fast as the reads.
    const makers = Array.from({ length: 6 }, (_, i) => {
      const step = (i % 3) + 1;
      return series(`s${i}`, Array.from({ length: 60 / step }, (_, k) => step * (k + 1)), log);
    });
    const at = new Map<string, number>();
    let widest = 0;
    const out: string[] = [];
    for await (const s of mergeByFrontier(makers, { concurrency: 2, readAhead: 2, progressOf })) {
      out.push(label(s));
      at.set(s.name, s.at!);
      const going = [...at.values()].filter((v) => v < 60);
      if (at.size === 6 && going.length > 1) widest = Math.max(widest, Math.max(...going) - Math.min(...going));
    }
    // Each series in its own order, every batch once.
    for (let i = 0; i < 6; i++) {
      const step = (i % 3) + 1;
      expect(out.filter((v) => v.startsWith(`s${i}@`))).toEqual(Array.from({ length: 60 / step }, (_, k) => `s${i}@${step * (k + 1)}`));
    }
    // Waves (mergeStreams) would put 59 units between the first two series and the last.
    expect(widest).toBe(3);
  });

  it('a consumer slower than the reads still gets the batches time-major (what was read ahead waits its turn)', async () => {
    const log: string[] = [];
    const makers = [series('a', [1, 2, 3, 4], log), series('b', [2, 4], log)];
    const merged = mergeByFrontier(makers, { concurrency: 2, readAhead: 4, progressOf });
    const first = await merged.next();
    // Everything is read while the consumer works on its first batch.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(['a@1', 'b@2', 'a@2', 'b@4', 'a@3', 'a@4']);
    const out = [label(first.value as Step)];
    for await (const s of merged) out.push(label(s));
    // Taken by where each batch starts: a and b from their start, then a from 1, a from 2 (before b
    // from 2: listed first), b from 2, a from 3.
    expect(out).toEqual(['a@1', 'b@2', 'a@2', 'a@3', 'b@4', 'a@4']);
  });

  it('a series whose page comes slower holds what the others read ahead until it arrives', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slow(): AsyncGenerator<Step> {
      yield { name: 'slow', at: 1 };
      await gate;
      yield { name: 'slow', at: 2 };
    }
    async function* quick(): AsyncGenerator<Step> {
      for (let at = 1; at <= 3; at++) yield { name: 'quick', at };
    }
    const merged = mergeByFrontier([slow, quick], { concurrency: 2, readAhead: 4, progressOf });
    const out: string[] = [];
    const reading = (async () => {
      for await (const s of merged) out.push(label(s));
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // quick@2 starts where slow stands (1); quick@3 starts ahead of it and waits for slow's next page.
    expect(out).toEqual(['slow@1', 'quick@1', 'quick@2']);
    release();
    await reading;
    expect(out).toEqual(['slow@1', 'quick@1', 'quick@2', 'slow@2', 'quick@3']);
  });

  it('a series started after the first openLanes ones catches up by read priority; the run is not held to its pace', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const log: string[] = [];
    async function* late(): AsyncGenerator<Step> {
      yield { name: 'late', at: 1 };
      await gate;
      yield { name: 'late', at: 2 };
    }
    const makers = [series('first', [1], log), series('other', [1, 2, 3, 4], log), late];
    const merged = mergeByFrontier(makers, { concurrency: 2, readAhead: 4, openLanes: 2, progressOf });
    const out: string[] = [];
    const reading = (async () => {
      for await (const s of merged) out.push(label(s));
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // `late` starts when `first` ends; `other` goes on while late's second page is on the way.
    expect(out).toEqual(['first@1', 'other@1', 'late@1', 'other@2', 'other@3', 'other@4']);
    release();
    await reading;
    expect(out.at(-1)).toBe('late@2');
  });

  it('a series that never says where it is (newest bars only) runs as soon as a slot frees and ends; nothing starves', async () => {
    const log: string[] = [];
    const makers = [series('walk', [1, 2, 3, 4], log), series('stock', [undefined], log), series('short', [100], log)];
    const out: string[] = [];
    for await (const s of mergeByFrontier(makers, { concurrency: 1, readAhead: 10, progressOf })) out.push(label(s));
    expect(out).toEqual(['walk@1', 'stock@-', 'short@100', 'walk@2', 'walk@3', 'walk@4']);
  });

  it('keeps at most `concurrency` reads in flight and `openLanes` series started, for a thousand series', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    let opened = 0;
    let mostOpen = 0;
    const makers = Array.from({ length: 1000 }, (_, i) => async function* (): AsyncGenerator<Step> {
      opened++;
      mostOpen = Math.max(mostOpen, opened);
      try {
        for (let page = 1; page <= 3; page++) {
          inFlight++;
          mostInFlight = Math.max(mostInFlight, inFlight);
          await tick();
          inFlight--;
          yield { name: `s${i}`, at: page };
        }
      } finally {
        opened--;
      }
    });
    let batches = 0;
    for await (const _ of mergeByFrontier(makers, { concurrency: 4, progressOf, openLanes: 16 })) batches++;
    expect(batches).toBe(3000);
    expect(mostInFlight).toBe(4);
    expect(mostOpen).toBe(16);
  });

  it('reads up to readAhead batches of a series ahead of a busy consumer, and no further', async () => {
    let produced = 0;
    async function* walk(): AsyncGenerator<Step> {
      for (let i = 0; i < 10; i++) {
        produced = i + 1;
        yield { name: 'w', at: i };
      }
    }
    const merged = mergeByFrontier([walk], { concurrency: 4, readAhead: 2, progressOf });
    expect((await merged.next()).value).toEqual({ name: 'w', at: 0 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(produced).toBe(3);
    expect((await merged.next()).value).toEqual({ name: 'w', at: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(produced).toBe(4);
    const rest: number[] = [];
    for await (const s of merged) rest.push(s.at!);
    expect(rest).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a failing series ends the merge with its error; the started ones are stopped, the unstarted never made', async () => {
    let returned = false;
    let made = 0;
    async function* slow(): AsyncGenerator<Step> {
      try {
        for (let i = 0; ; i++) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield { name: 'slow', at: i };
        }
      } finally {
        returned = true;
      }
    }
    async function* broken(): AsyncGenerator<Step> {
      yield { name: 'broken', at: 0 };
      throw new Error('page failed');
    }
    const never = async function* (): AsyncGenerator<Step> {
      made++;
      yield { name: 'never', at: 0 };
    };
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const s of mergeByFrontier([slow, broken, never], { concurrency: 2, progressOf, openLanes: 2 })) seen.push(label(s));
      })(),
    ).rejects.toThrow('page failed');
    expect(seen).toContain('broken@0');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(returned).toBe(true);
    expect(made).toBe(0);
  });

  it('a consumer that stops (an abort) stops the started series and leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let fail: (e: Error) => void = () => undefined;
    let made = 0;
    async function* failing(): AsyncGenerator<Step> {
      yield { name: 'f', at: 1 };
      // The page in flight when the run is aborted: it fails after the consumer stopped asking.
      await new Promise<void>((_resolve, reject) => {
        fail = reject;
      });
      yield { name: 'f', at: 2 };
    }
    const later = async function* (): AsyncGenerator<Step> {
      made++;
      yield { name: 'later', at: 0 };
    };
    try {
      const merged = mergeByFrontier([failing, later], { concurrency: 1, progressOf, openLanes: 1 });
      expect((await merged.next()).value).toEqual({ name: 'f', at: 1 });
      await tick();
      // The consumer leaves (the run's abort); the read already started then fails.
      await merged.return(undefined);
      fail(Object.assign(new Error('aborted'), { code: 'QL_ABORTED' }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      expect(made).toBe(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
