/**
 * A release stamps the moment its answer's headers arrived (release(agoMs)), not the moment the
 * releasing thread got round to it: in the in-process limiter and in the shared one on Redis.
 * Never before the request's admission, whatever age is claimed.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { SlidingWindowLimiter } from '../../src/api/rate-limiter.js';
import { tokenKeys } from '../../src/api/redis/redis-keys.js';
import { manualSleep, systemSleep } from '../../src/api/sleep.js';
import { ManualClock, systemClock } from '../../src/core/clock.js';
import { useRedisServer } from '../helpers/redis-server.js';
import { admissionOn, contextFor, settled, TOKEN } from './redis/coordinator-fixture.js';
import { tokenHash16 } from '../../src/api/quota-store.js';

const T0 = Date.parse('2026-01-05T00:00:00Z');
const RULE = { key: 's', limit: 2, windowMs: 1000 };

describe('SlidingWindowLimiter.release(agoMs)', () => {
  it('stamps at now - agoMs, in order, so the window reopens that much earlier', async () => {
    const clock = new ManualClock(T0);
    const limiter = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock) });
    const a = await limiter.acquire([RULE]);
    const b = await limiter.acquire([RULE]);
    clock.set(T0 + 100);
    b.release(30); // headers at +70
    a.release(60); // headers at +40: inserted before b's stamp
    expect(limiter.earliestAdmission([RULE])).toBe(T0 + 40 + 1000);
    const c = limiter.acquire([RULE]);
    const admitted = await c;
    expect(admitted.admittedAt).toBe(T0 + 1040);
    // With a at +40 gone from the window at +1040, b's stamp at +70 still holds the second slot.
    admitted.release();
    expect(limiter.earliestAdmission([RULE])).toBe(T0 + 1070);
  });

  it('never stamps before the admission, and a negative or missing age is now', async () => {
    const clock = new ManualClock(T0);
    const limiter = new SlidingWindowLimiter({ clock, sleep: manualSleep(clock) });
    const a = await limiter.acquire([RULE]);
    const b = await limiter.acquire([RULE]);
    clock.set(T0 + 50);
    a.release(10_000);
    b.release(-5);
    // a: at its admission (T0), not 10 s before; b: now (T0 + 50).
    expect(limiter.earliestAdmission([RULE])).toBe(T0 + 1000);
    expect(limiter.earliestAdmission([{ ...RULE, limit: 1 }])).toBe(T0 + 1050);
  });
});

describe('the shared limiter\'s release(agoMs) on Redis', () => {
  const server = useRedisServer();

  it('stamps at Redis time - agoMs (whole ms), never before the permit\'s own age', async () => {
    await settled(server().url);
    const context = { ...contextFor(new ManualClock(0)), clock: systemClock, virtualClock: false, sleep: systemSleep, marginMs: 1 };
    const { coordinator, limiter } = await admissionOn(server().url, context);
    const redis = new Redis(server().url);
    try {
      const rule = { key: 'combined:second', limit: 20, windowMs: 1000 };
      const key = tokenKeys(tokenHash16(TOKEN)).stamps(rule.key);
      const admittedAt = Date.now();
      const first = await limiter.acquire([rule]);
      const second = await limiter.acquire([rule]);
      await new Promise((r) => setTimeout(r, 60));
      const before = Date.now();
      first.release(25.7);
      second.release(60_000);
      await redis.ping(); // the releases went first on their connection; wait for them to land
      await new Promise((r) => setTimeout(r, 20));
      const after = Date.now();
      const stamps = (await redis.zrange(key, 0, -1, 'WITHSCORES')).filter((_, i) => i % 2 === 1).map(Number).sort((x, y) => x - y);
      expect(stamps).toHaveLength(2);
      // second: capped at its own age, so at or after its admission; first: 25 ms (not 26) before the script ran.
      expect(stamps[0]).toBeGreaterThanOrEqual(admittedAt);
      expect(stamps[0]).toBeLessThanOrEqual(before);
      const firstStamp = stamps[1]!;
      expect(firstStamp).toBeGreaterThanOrEqual(before - 26);
      expect(firstStamp).toBeLessThanOrEqual(after - 25);
    } finally {
      redis.disconnect();
      await coordinator.close();
    }
  });
});
