/**
 * The shared daily count: charged in the admission script by every process, reset at the quota
 * zone's midnight, refunded only for what was charged, rebuilt after Redis lost it, and never
 * holding the token. Plus the two ends of a permit: a crashed holder's lease, and the restart guard.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Permit, WindowRule } from '../../../src/api/rate-limiter.js';
import type { RedisLimiter } from '../../../src/api/redis/redis-limiter.js';
import { tokenHash16 } from '../../../src/api/quota-store.js';
import { ManualClock } from '../../../src/core/clock.js';
import { CoordinatorDownError, QuotaExhaustedError } from '../../../src/core/errors.js';
import { useRedisServer } from '../../helpers/redis-server.js';
import { admissionOn, contextFor, flush, settled, TOKEN, withDayLimit } from './coordinator-fixture.js';

const ONE: readonly WindowRule[] = [{ key: 'combined:second', limit: 1000, windowMs: 1000 }];
// 23:59:58 in New York (EST, UTC-5) on 2026-03-02.
const BEFORE_MIDNIGHT_NY = Date.parse('2026-03-03T04:59:58Z');

describe('the shared daily count', () => {
  const server = useRedisServer();
  const closers: (() => Promise<void>)[] = [];
  const open = async (clock: ManualClock, perDay: number, timeZone = 'UTC') => {
    const a = await admissionOn(server().url, contextFor(clock, { limits: withDayLimit(perDay), timeZone }));
    closers.push(() => a.coordinator.close());
    return a;
  };
  const admit = async (limiter: RedisLimiter) => {
    const permit = await limiter.tryAcquire(ONE);
    if (typeof permit !== 'object') throw new Error(`refused: ${String(permit)}`);
    permit.release();
    return permit;
  };

  beforeEach(async () => {
    await flush(server().url);
    await settled(server().url);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('counts every process, stops at the limit with the reset instant, and resets at the zone\'s midnight', async () => {
    const clock = new ManualClock(BEFORE_MIDNIGHT_NY);
    const a = await open(clock, 5, 'America/New_York');
    const b = await open(clock, 5, 'America/New_York');
    for (let i = 0; i < 3; i++) await admit(a.limiter);
    for (let i = 0; i < 2; i++) await admit(b.limiter);
    expect((await a.quota.status()).used).toBe(5);
    expect((await b.quota.status()).remaining).toBe(0);
    const error = await a.limiter.tryAcquire(ONE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt.toISOString()).toBe('2026-03-03T05:00:00.000Z');
    // New York midnight: a new day, a new count.
    clock.set(Date.parse('2026-03-03T05:00:00Z'));
    await admit(b.limiter);
    const status = await a.quota.status();
    expect(status).toMatchObject({ day: '2026-03-03', used: 1, limit: 5, remaining: 4, timeZone: 'America/New_York' });
  });

  it('gives back a charged request once, and nothing for an admission that was refused', async () => {
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const a = await open(clock, 10);
    await admit(a.limiter);
    await admit(a.limiter);
    a.quota.refund();
    // A refused acquire (aborted) charged nothing: its refund changes nothing.
    const aborted = new AbortController();
    aborted.abort();
    await expect(a.limiter.acquire(ONE, aborted.signal)).rejects.toThrow();
    a.quota.refund();
    await new Promise((r) => setTimeout(r, 20));
    expect((await a.quota.status()).used).toBe(1);
  });

  it('rebuilds the count after Redis lost it: each process adds back what it charged today', async () => {
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const a = await open(clock, 100);
    const b = await open(clock, 100);
    for (let i = 0; i < 5; i++) await admit(a.limiter);
    for (let i = 0; i < 3; i++) await admit(b.limiter);
    await server().restart();
    await settled(server().url);
    // Until ioredis has reconnected, admissions fail closed.
    let first: unknown;
    for (let i = 0; i < 100; i++) {
      first = await a.limiter.tryAcquire(ONE).catch((e: unknown) => e);
      if (!(first instanceof CoordinatorDownError)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(typeof first).toBe('object');
    (first as Permit).release();
    expect((await a.quota.status()).used).toBe(6);
    await admit(b.limiter);
    expect((await b.quota.status()).used).toBe(10);
  });

  it('frees the slot of a holder that never releases once its lease (the request timeout) ends', async () => {
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const a = await admissionOn(server().url, contextFor(clock, { requestTimeoutMs: 30_000 }));
    closers.push(() => a.coordinator.close());
    const rules: readonly WindowRule[] = [{ key: 'combined:second', limit: 1, windowMs: 1000 }];
    expect(typeof (await a.limiter.tryAcquire(rules))).toBe('object'); // never released: a crashed holder
    clock.set(clock.now() + 29_999);
    // Still held: only a release (or the lease's end) frees it.
    expect(await a.limiter.tryAcquire(rules)).toBe('release');
    clock.set(clock.now() + 1);
    // Freed, but as a stamp at the lease's end (the service may have counted it): one window more.
    expect(await a.limiter.tryAcquire(rules)).toBe(1000);
    clock.set(clock.now() + 1000);
    expect(typeof (await a.limiter.tryAcquire(rules))).toBe('object');
  });

  it('keeps a crashed holder\'s request in a window longer than its lease (a minute) once the lease ends', async () => {
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const start = clock.now();
    // Request timeouts of 5 s in all, a per-minute window of 2.
    const a = await admissionOn(server().url, contextFor(clock, { requestTimeoutMs: 5000 }));
    const b = await admissionOn(server().url, contextFor(clock, { requestTimeoutMs: 5000 }));
    closers.push(() => a.coordinator.close(), () => b.coordinator.close());
    const rules: readonly WindowRule[] = [{ key: 'combined:minute', limit: 2, windowMs: 60_000 }];
    // A is killed mid-request: its permit is never released, but the service counted the request.
    expect(typeof (await a.limiter.tryAcquire(rules))).toBe('object');
    const permit = await b.limiter.tryAcquire(rules);
    if (typeof permit !== 'object') throw new Error('refused');
    permit.release();
    await new Promise((r) => setTimeout(r, 20));
    // The lease is over, the minute is not: the service still counts both, so a third must wait
    // until B's stamp leaves the minute (the dead one stays until its lease end + 60 s).
    clock.set(start + 5000);
    expect(await b.limiter.tryAcquire(rules)).toBe(55_000);
    clock.set(start + 60_000);
    const third = await b.limiter.tryAcquire(rules);
    expect(typeof third).toBe('object');
    (third as Permit).release();
    await new Promise((r) => setTimeout(r, 20));
    expect(await b.limiter.tryAcquire(rules)).toBe(5000);
  });

  it('keeps every window closed after a restart until what Redis forgot has left it', async () => {
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const a = await admissionOn(server().url, contextFor(clock, { requestTimeoutMs: 5000 }));
    closers.push(() => a.coordinator.close());
    await server().restart(); // no epoch key now: a Redis that lost its memory
    let wait: unknown;
    for (let i = 0; i < 100; i++) {
      wait = await a.limiter.tryAcquire([{ key: 'combined:minute', limit: 1200, windowMs: 60_000 }]).catch((e: unknown) => e);
      if (!(wait instanceof CoordinatorDownError)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Closed until (server start) + 60 s; the server started 0-2 s ago by its uptime.
    expect(typeof wait).toBe('number');
    expect(wait as number).toBeGreaterThan(57_000);
    expect(wait as number).toBeLessThanOrEqual(60_000);
  });

  it('never stores the token: keys and values carry only its hash', async () => {
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const a = await open(clock, 100);
    for (let i = 0; i < 3; i++) await admit(a.limiter);
    const redis = new Redis(server().url);
    const keys = await redis.keys('*');
    expect(keys.length).toBeGreaterThan(2);
    expect(keys.every((k) => k.includes(tokenHash16(TOKEN)))).toBe(true);
    for (const key of keys) {
      const type = await redis.type(key);
      const dump = type === 'hash' ? JSON.stringify(await redis.hgetall(key)) : type === 'zset' ? JSON.stringify(await redis.zrange(key, 0, -1, 'WITHSCORES')) : String(await redis.get(key));
      expect(`${key} ${dump}`).not.toContain(TOKEN);
    }
    redis.disconnect();
  });
});
