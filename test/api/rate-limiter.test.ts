import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { AbortedError } from '../../src/core/errors.js';
import { SlidingWindowLimiter, type WindowRule } from '../../src/api/rate-limiter.js';
import { manualSleep } from '../../src/api/sleep.js';
import { windowViolations } from '../helpers/sliding-window-oracle.js';

const T0 = Date.parse('2026-01-05T00:00:00Z');

function setup(marginMs = 0) {
  const clock = new ManualClock(T0);
  const limiter = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock), marginMs });
  return { clock, limiter };
}

/** Acquires and releases at once (a request answered instantly); returns the offset from T0. */
async function instant(limiter: SlidingWindowLimiter, rules: readonly WindowRule[]): Promise<number> {
  const permit = await limiter.acquire(rules);
  permit.release();
  return permit.admittedAt - T0;
}

async function sequential(limiter: SlidingWindowLimiter, rules: WindowRule[], n: number) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await instant(limiter, rules));
  return out;
}

describe('SlidingWindowLimiter (pure fake clock)', () => {
  it('runs a 20/s window at exactly full rate', async () => {
    const { limiter } = setup();
    const rules = [{ key: 's', limit: 20, windowMs: 1000 }];
    const offsets = await Promise.all(Array.from({ length: 100 }, () => instant(limiter, rules)));
    expect(offsets.filter((t) => t === 0)).toHaveLength(20);
    expect(Math.max(...offsets)).toBe(4000);
    expect(windowViolations(offsets, 20, 1000)).toBe(0);
  });

  it('combines per-second and per-minute windows (free: 1/10 s and 10/min)', async () => {
    const { limiter } = setup();
    const rules = [
      { key: 's', limit: 1, windowMs: 10_000 },
      { key: 'm', limit: 10, windowMs: 60_000 },
    ];
    const offsets = await sequential(limiter, rules, 12);
    expect(offsets).toEqual(Array.from({ length: 12 }, (_, i) => i * 10_000));
    expect(windowViolations(offsets, 10, 60_000)).toBe(0);
  });

  it('per-minute binds when the minute is spent', async () => {
    const { limiter } = setup();
    const rules = [
      { key: 's', limit: 20, windowMs: 1000 },
      { key: 'm', limit: 30, windowMs: 60_000 },
    ];
    const rel = (await Promise.all(Array.from({ length: 45 }, () => instant(limiter, rules)))).sort((a, b) => a - b);
    expect(rel.slice(0, 20).every((t) => t === 0)).toBe(true);
    expect(rel.slice(20, 30).every((t) => t === 1000)).toBe(true);
    expect(rel.slice(30, 45).every((t) => t === 60_000)).toBe(true);
  });

  it('a request held by its own gap does not hold back others', async () => {
    const { limiter } = setup();
    const combined = { key: 's', limit: 10, windowMs: 1000 };
    const gap = { key: 'gap', limit: 1, windowMs: 60_000 };
    expect(await instant(limiter, [combined, gap])).toBe(0);
    const held = instant(limiter, [combined, gap]);
    expect(await instant(limiter, [combined])).toBe(0);
    expect(await held).toBe(60_000);
  });

  it('an in-flight request fills its windows until released, then counts from its release', async () => {
    const { clock, limiter } = setup();
    const rules = [{ key: 's', limit: 1, windowMs: 1000 }];
    const first = await limiter.acquire(rules);
    let second: number | undefined;
    const pending = limiter.acquire(rules).then((p) => {
      second = p.admittedAt - T0;
      p.release();
    });
    // The answer takes 2.5 s: however long, nobody is admitted while it is in flight.
    clock.advance(2500);
    await new Promise((r) => setImmediate(r));
    expect(second).toBeUndefined();
    first.release();
    await pending;
    // Stamped at its release (2500), so the next admission is a full window later.
    expect(second).toBe(3500);
  });

  it('caps requests in flight', async () => {
    const clock = new ManualClock(T0);
    const limiter = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock), maxInFlight: 2 });
    const rules = [{ key: 'a', limit: 100, windowMs: 1000 }];
    const a = await limiter.acquire(rules);
    await limiter.acquire(rules);
    let third = false;
    const pending = limiter.acquire(rules).then(() => (third = true));
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    a.release();
    await pending;
    expect(limiter.inFlight).toBe(2);
  });

  it('the margin stretches every window', async () => {
    const { limiter } = setup(5);
    expect(await sequential(limiter, [{ key: 's', limit: 1, windowMs: 1000 }], 3)).toEqual([0, 1005, 2010]);
  });

  it('pauseUntil holds every admission', async () => {
    const { limiter } = setup();
    limiter.pauseUntil(T0 + 2500);
    expect(await instant(limiter, [{ key: 's', limit: 5, windowMs: 1000 }])).toBe(2500);
  });

  it('an aborted waiter leaves the queue and rejects with AbortedError', async () => {
    const { limiter } = setup();
    const rules = [{ key: 's', limit: 1, windowMs: 1000 }];
    await instant(limiter, rules);
    const controller = new AbortController();
    const waiting = limiter.acquire(rules, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    expect(limiter.waiting).toBe(0);
  });

  it('an earlier wake-up replaces a later one', async () => {
    const clock = new ManualClock(T0);
    const pending: { ms: number; resolve: () => void; signal?: AbortSignal }[] = [];
    const limiter = new SlidingWindowLimiter({
      clock,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          pending.push({ ms, resolve, ...(signal ? { signal } : {}) });
          signal?.addEventListener('abort', () => reject(new Error('cancelled')));
        }),
    });
    await instant(limiter, [{ key: 'a', limit: 1, windowMs: 60_000 }]);
    await instant(limiter, [{ key: 'b', limit: 1, windowMs: 1000 }]);
    const slow = instant(limiter, [{ key: 'a', limit: 1, windowMs: 60_000 }]);
    expect(pending.at(-1)?.ms).toBe(60_000);
    const fast = instant(limiter, [{ key: 'b', limit: 1, windowMs: 1000 }]);
    expect(pending.at(-1)?.ms).toBe(1000);
    expect(pending.at(-2)?.signal?.aborted).toBe(true);
    clock.advance(1000);
    pending.at(-1)!.resolve();
    expect(await fast).toBe(1000);
    clock.set(T0 + 60_000);
    pending.at(-1)!.resolve();
    expect(await slow).toBe(60_000);
  });
});
