/**
 * Reservations (RESERVE_MS, ADMIT_LUA): on real time a request whose windows open within 50 ms is
 * admitted at once for that instant and sent then. Two processes' limiters on one token, every
 * request answered at once: no window of the rule ever holds more than its limit by the instants
 * the permits were handed out, reservations did happen, and one aborted while it waited gives its
 * slot back (no stamp) and its request of the day back.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESERVE_MS } from '../../../src/api/redis/redis-limiter.js';
import { tokenKeys } from '../../../src/api/redis/redis-keys.js';
import { tokenHash16 } from '../../../src/api/quota-store.js';
import { systemSleep } from '../../../src/api/sleep.js';
import { ManualClock, systemClock } from '../../../src/core/clock.js';
import { useRedisServer } from '../../helpers/redis-server.js';
import { windowViolations } from '../../helpers/sliding-window-oracle.js';
import { admissionOn, contextFor, flush, settled, TOKEN, withDayLimit } from './coordinator-fixture.js';

const RULE = { key: 'combined:second', limit: 5, windowMs: 1000 };

describe('reservations in the shared limiter (real time)', () => {
  const server = useRedisServer();
  const closers: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    await flush(server().url);
    await settled(server().url);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const realTime = (overrides = {}) => ({ ...contextFor(new ManualClock(0)), clock: systemClock, virtualClock: false, sleep: systemSleep, marginMs: 1, ...overrides });

  async function process(overrides = {}) {
    const a = await admissionOn(server().url, realTime(overrides));
    closers.push(() => a.coordinator.close());
    return a;
  }

  it('hands out permits no faster than the rule, reserving ahead when the window opens soon', async () => {
    const [one, two] = [await process(), await process()];
    const handedAt: number[] = [];
    const take = async (limiter: typeof one.limiter) => {
      const permit = await limiter.acquire([RULE]);
      handedAt.push(Date.now());
      permit.release();
    };
    await Promise.all(Array.from({ length: 16 }, (_, i) => take(i % 2 === 0 ? one.limiter : two.limiter)));
    handedAt.sort((x, y) => x - y);
    expect(handedAt).toHaveLength(16);
    expect(windowViolations(handedAt, RULE.limit, RULE.windowMs)).toBe(0);
    // 16 at 5 a second: three full turns of the window at least.
    expect(handedAt.at(-1)! - handedAt[0]!).toBeGreaterThanOrEqual(3 * RULE.windowMs);
    expect(one.limiter.reserved + two.limiter.reserved).toBeGreaterThan(0);
    expect(RESERVE_MS).toBe(50);
  });

  it('a reservation aborted while it waits leaves no stamp, no flight and no charge', async () => {
    const { limiter, quota } = await process({ limits: withDayLimit(100) });
    const held = await Promise.all(Array.from({ length: RULE.limit }, () => limiter.acquire([RULE])));
    for (const p of held) p.release();
    // The window reopens about a second from now: wait until it is within the reservation's reach.
    await new Promise((r) => setTimeout(r, RULE.windowMs - RESERVE_MS / 2));
    const controller = new AbortController();
    const pending = limiter.acquire([RULE], controller.signal);
    // Aborted as soon as it is reserved (it would start some 25 ms later).
    while (limiter.reserved === 0) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('stopped'));
    await expect(pending).rejects.toThrow('stopped');
    quota.refund(); // what the client does when acquire throws
    const redis = new Redis(server().url);
    try {
      const keys = tokenKeys(tokenHash16(TOKEN));
      await expect.poll(async () => redis.zcard(keys.flight(RULE.key))).toBe(0);
      expect(await redis.zcard(keys.stamps(RULE.key))).toBe(RULE.limit);
      // Charged when reserved, given back by the refund: the day holds the five sent.
      await expect.poll(async () => Number((await redis.hget(keys.day(quota.dayOf().day), 'used')) ?? 0)).toBe(RULE.limit);
    } finally {
      redis.disconnect();
    }
  });
});
