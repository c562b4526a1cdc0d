/**
 * A request told "wait until t" by the admission script keeps waiting for t: releases on the token
 * (published to every process) do not make it ask again, since a release turns an in-flight request
 * into a stamp and cannot bring t closer. Before, every release cost every waiting process a call.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemSleep } from '../../../src/api/sleep.js';
import { ManualClock, systemClock } from '../../../src/core/clock.js';
import { useRedisServer } from '../../helpers/redis-server.js';
import { admissionOn, contextFor, flush, settled } from './coordinator-fixture.js';

const SECOND = { key: 'combined:second', limit: 2, windowMs: 1000 };
const OTHER = { key: 'other', limit: 1000, windowMs: 1000 };

describe('a timed wait in the shared limiter', () => {
  const server = useRedisServer();
  const closers: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    await flush(server().url);
    await settled(server().url);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('is not cut short by the releases of other requests on the token', async () => {
    const realTime = { ...contextFor(new ManualClock(0)), clock: systemClock, virtualClock: false, sleep: systemSleep, marginMs: 1 };
    const [busy, waiting] = [await admissionOn(server().url, realTime), await admissionOn(server().url, realTime)];
    closers.push(() => busy.coordinator.close(), () => waiting.coordinator.close());
    const redis = new Redis(server().url);
    closers.push(async () => void redis.disconnect());
    for (const p of await Promise.all([busy.limiter.acquire([SECOND]), busy.limiter.acquire([SECOND])])) p.release();
    await redis.config('RESETSTAT');
    const pending = waiting.limiter.acquire([SECOND]);
    // Twenty requests of another rule come and go on the token while it waits (about a second).
    for (let i = 0; i < 20; i++) {
      (await busy.limiter.acquire([OTHER])).release();
      await new Promise((r) => setTimeout(r, 20));
    }
    (await pending).release();
    const stats = await redis.info('commandstats');
    const calls = Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0) + Number(/cmdstat_eval:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    // busy: 20 admissions + 20 releases; waiting: one call that is told to wait, one at the instant,
    // one release (a timer that fires a little early adds a call or two). Woken by each of the 20
    // releases, as before, it made 63.
    expect(calls).toBeGreaterThanOrEqual(43);
    expect(calls).toBeLessThanOrEqual(47);
  });
});
