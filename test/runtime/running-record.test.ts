/**
 * The running record's refreshes, on a timer the test ticks by hand: a write only when the counts
 * moved, one write at a time, none after stop(), a failed one tried again.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startRunningRecord, type EveryTimer } from '../../src/runtime/running-record.js';

/** A record whose "file" is `written` (the counts at each write), a timer ticked by hand and writes that can be held. */
function harness(options: { mayRefresh?: () => boolean; failNext?: () => boolean } = {}) {
  let counts = 0;
  const written: number[] = [];
  const errors: unknown[] = [];
  let changed: (() => void) | undefined;
  let tick: (() => Promise<void>) | undefined;
  let cancelled = false;
  let hold: Promise<void> | undefined;
  const every: EveryTimer = (ms, t) => {
    expect(ms).toBe(2_000);
    tick = t;
    return () => void (cancelled = true);
  };
  const record = startRunningRecord({
    write: async () => {
      const at = counts;
      if (hold) await hold;
      if (options.failNext?.() === true) throw new Error('disk full');
      written.push(at);
    },
    onChange: (c) => {
      changed = c;
      return () => void (changed = undefined);
    },
    ...(options.mayRefresh ? { mayRefresh: options.mayRefresh } : {}),
    onError: (e) => errors.push(e),
    every,
  });
  return {
    record,
    written,
    errors,
    tick: () => tick!(),
    cancelled: () => cancelled,
    subscribed: () => changed !== undefined,
    /** A request or a batch: the counts move. */
    move: () => {
      counts++;
      changed?.();
    },
    holdWrites: () => {
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

describe('running record refreshes', () => {
  it('a tick writes the record only when its counts moved since the last write', async () => {
    const h = harness();
    await h.tick();
    expect(h.written).toEqual([]);
    h.move();
    h.move();
    await h.tick();
    expect(h.written).toEqual([2]);
    await h.tick();
    expect(h.written).toEqual([2]);
    // A commit's write covers what moved before it: the next tick has nothing new.
    h.move();
    await h.record.write();
    await h.tick();
    expect(h.written).toEqual([2, 3]);
  });

  it('writes one at a time: a commit waits for a slow refresh, and ticks meanwhile add none', async () => {
    const h = harness();
    h.move();
    const release = h.holdWrites();
    const refreshing = h.tick();
    // Under way: it took the counts of its turn.
    await turn();
    h.move();
    const committing = h.record.write();
    h.move();
    // A slow store must not pile writes up: the ticks during it are skipped.
    await Promise.all([h.tick(), h.tick()]);
    release();
    await Promise.all([refreshing, committing]);
    // In order, each with the counts of its own turn.
    expect(h.written).toEqual([1, 3]);
    await h.tick();
    expect(h.written).toEqual([1, 3]);
  });

  it('stop() waits for the write under way; nothing is written after it', async () => {
    const h = harness();
    h.move();
    const release = h.holdWrites();
    const refreshing = h.tick();
    await turn();
    let stopped = false;
    const stopping = h.record.stop().then(() => (stopped = true));
    await turn();
    expect(stopped).toBe(false);
    release();
    await Promise.all([refreshing, stopping]);
    expect(h.written).toEqual([1]);
    expect(h.cancelled()).toBe(true);
    expect(h.subscribed()).toBe(false);
    // A tick that fires late, a commit's write, a second stop: none writes over the final record.
    h.move();
    await h.tick();
    await h.record.write();
    await h.record.stop();
    expect(h.written).toEqual([1]);
  });

  it('a write queued before stop() does not land after it', async () => {
    const h = harness();
    h.move();
    const release = h.holdWrites();
    const first = h.record.write();
    await turn();
    h.move();
    const queued = h.record.write();
    const stopping = h.record.stop();
    release();
    await Promise.all([first, queued, stopping]);
    expect(h.written).toEqual([1]);
  });

  it('a failed refresh is reported, never rejects, and the next tick tries again', async () => {
    let fail = true;
    const h = harness({ failNext: () => fail });
    h.move();
    await expect(h.tick()).resolves.toBeUndefined();
    expect(h.errors).toMatchObject([{ message: 'disk full' }]);
    fail = false;
    await h.tick();
    expect(h.written).toEqual([1]);
  });

  it("a commit's failed write is the caller's error", async () => {
    const h = harness({ failNext: () => true });
    await expect(h.record.write()).rejects.toThrow('disk full');
    expect(h.errors).toEqual([]);
  });

  it('no refresh while the run may not write (its lease is lost)', async () => {
    let held = true;
    const h = harness({ mayRefresh: () => held });
    h.move();
    held = false;
    await h.tick();
    expect(h.written).toEqual([]);
    held = true;
    await h.tick();
    expect(h.written).toEqual([1]);
  });
});
