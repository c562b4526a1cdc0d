import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { AbortedError } from '../../src/core/errors.js';
import { SlidingWindowLimiter, type WindowRule } from '../../src/api/rate-limiter.js';
import { manualSleep } from '../../src/api/sleep.js';

const T0 = Date.parse('2026-01-05T00:00:00Z');

function setup(marginMs = 0) {
  const clock = new ManualClock(T0);
  const limiter = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock), marginMs });
  return { clock, limiter };
}

/** Admits n requests one after another (each waits for the previous) and returns offsets from T0. */
async function admitSequential(limiter: SlidingWindowLimiter, rules: WindowRule[], n: number) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await limiter.acquire(rules)) - T0);
  return out;
}

/** Checks the sliding-window rule over a list of admission offsets. */
function violations(times: number[], limit: number, windowMs: number): number {
  let bad = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    const inWindow = times.slice(0, i).filter((s) => s > t - windowMs && s <= t).length;
    if (inWindow >= limit) bad++;
  }
  return bad;
}

describe('SlidingWindowLimiter', () => {
  it('runs a 20/s window at exactly full rate', async () => {
    const { limiter } = setup();
    const rules = [{ key: 's', limit: 20, windowMs: 1000 }];
    const times = await Promise.all(Array.from({ length: 100 }, () => limiter.acquire(rules)));
    const offsets = times.map((t) => t - T0);
    expect(offsets.filter((t) => t === 0)).toHaveLength(20);
    expect(Math.max(...offsets)).toBe(4000);
    expect(violations(offsets, 20, 1000)).toBe(0);
  });

  it('combines per-second and per-minute windows (free: 1/10 s and 10/min)', async () => {
    const { limiter } = setup();
    const rules = [
      { key: 's', limit: 1, windowMs: 10_000 },
      { key: 'm', limit: 10, windowMs: 60_000 },
    ];
    const offsets = await admitSequential(limiter, rules, 12);
    // 1 per 10 s gives 0,10,...,50 s; the minute window then allows 4 more per minute.
    expect(offsets.slice(0, 6)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    expect(offsets[6]).toBe(60_000);
    expect(violations(offsets, 1, 10_000)).toBe(0);
    expect(violations(offsets, 10, 60_000)).toBe(0);
  });

  it('per-minute binds before per-second when the minute is spent', async () => {
    const { limiter } = setup();
    const rules = [
      { key: 's', limit: 20, windowMs: 1000 },
      { key: 'm', limit: 30, windowMs: 60_000 },
    ];
    const offsets = await Promise.all(Array.from({ length: 45 }, () => limiter.acquire(rules)));
    const rel = offsets.map((t) => t - T0).sort((a, b) => a - b);
    expect(rel.slice(0, 20).every((t) => t === 0)).toBe(true);
    expect(rel.slice(20, 30).every((t) => t === 1000)).toBe(true);
    expect(rel.slice(30, 45).every((t) => t === 60_000)).toBe(true);
  });

  it('a request held by its own gap does not hold back others', async () => {
    const { limiter } = setup();
    const combined = { key: 's', limit: 10, windowMs: 1000 };
    const gap = { key: 'gap', limit: 1, windowMs: 60_000 };
    expect(await limiter.acquire([combined, gap])).toBe(T0);
    const held = limiter.acquire([combined, gap]);
    const free = await limiter.acquire([combined]);
    expect(free).toBe(T0);
    expect(await held).toBe(T0 + 60_000);
  });

  it('the margin stretches every window', async () => {
    const { limiter } = setup(5);
    const offsets = await admitSequential(limiter, [{ key: 's', limit: 1, windowMs: 1000 }], 3);
    expect(offsets).toEqual([0, 1005, 2010]);
  });

  it('pauseUntil holds every admission', async () => {
    const { limiter } = setup();
    limiter.pauseUntil(T0 + 2500);
    expect(await limiter.acquire([{ key: 's', limit: 5, windowMs: 1000 }])).toBe(T0 + 2500);
  });

  it('an aborted waiter leaves the queue and rejects with AbortedError', async () => {
    const { limiter } = setup();
    const rules = [{ key: 's', limit: 1, windowMs: 1000 }];
    await limiter.acquire(rules);
    const controller = new AbortController();
    const waiting = limiter.acquire(rules, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(limiter.waiting).toBe(0);
  });

  it('an earlier wake-up replaces a later one', async () => {
    // A pure fake clock that only moves when the test says so.
    const clock = new ManualClock(T0);
    const pending: { ms: number; resolve: () => void; signal?: AbortSignal }[] = [];
    const limiter = new SlidingWindowLimiter({
      clock,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          pending.push({ ms, resolve, signal });
          signal?.addEventListener('abort', () => reject(new Error('cancelled')));
        }),
    });
    await limiter.acquire([{ key: 'a', limit: 1, windowMs: 60_000 }]);
    await limiter.acquire([{ key: 'b', limit: 1, windowMs: 1000 }]);
    const slow = limiter.acquire([{ key: 'a', limit: 1, windowMs: 60_000 }]);
    expect(pending.at(-1)?.ms).toBe(60_000);
    const fast = limiter.acquire([{ key: 'b', limit: 1, windowMs: 1000 }]);
    expect(pending.at(-1)?.ms).toBe(1000);
    expect(pending.at(-2)?.signal?.aborted).toBe(true);
    clock.advance(1000);
    pending.at(-1)!.resolve();
    expect(await fast).toBe(T0 + 1000);
    clock.set(T0 + 60_000);
    pending.at(-1)!.resolve();
    expect(await slow).toBe(T0 + 60_000);
  });
});
