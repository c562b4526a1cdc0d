/**
 * The restart guard's instant (redis-scripts.ts): Redis tells its age only in whole seconds
 * (`uptime_in_seconds`, a difference of truncated clock seconds), which reads 1 a few ms after a
 * start that straddles a second. The guard must never be placed before the real start, or a window
 * reopens before what Redis forgot has left it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RedisLimiter } from '../../../src/api/redis/redis-limiter.js';
import { systemSleep } from '../../../src/api/sleep.js';
import { ManualClock, systemClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/runtime/logger.js';
import { startRedisServer, type RedisTestServer } from '../../helpers/redis-server.js';
import { admissionOn, contextFor } from './coordinator-fixture.js';

const LEASE_MS = 3000;

describe('the restart guard', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function freshServer(): Promise<{ server: RedisTestServer; spawnedAt: number }> {
    const spawnedAt = Date.now();
    const server = await startRedisServer();
    closers.push(() => server.stop());
    return { server, spawnedAt };
  }

  it('holds every window until the real start + max(window, lease), even when the uptime reads a second too many', async () => {
    const { server, spawnedAt } = await freshServer();
    // Just past the next whole second: the uptime now reads 1 although the server is younger.
    await new Promise((r) => setTimeout(r, 1005 - (Date.now() % 1000)));
    // Real time (Redis TIME), as a CLI run uses it.
    const context = { ...contextFor(new ManualClock(0), { requestTimeoutMs: LEASE_MS }), clock: systemClock, virtualClock: false, sleep: systemSleep, marginMs: 1 };
    const a = await admissionOn(server.url, context);
    closers.push(() => a.coordinator.close());
    const askedAt = Date.now();
    const wait = await (a.limiter as RedisLimiter).tryAcquire([{ key: 'combined:second', limit: 20, windowMs: 1000 }]);
    expect(typeof wait).toBe('number');
    // The script's instant is at or after askedAt: the window reopens no earlier than this.
    expect(askedAt + (wait as number)).toBeGreaterThanOrEqual(spawnedAt + LEASE_MS);
    // And not much later: the guard errs by under a second, plus the start-up.
    expect(askedAt + (wait as number)).toBeLessThan(Date.now() + LEASE_MS + 1000);
  });

  it('says its wait once, at warn, naming the coordinator and the instant requests go out again', async () => {
    const { server } = await freshServer();
    const lines: string[] = [];
    const clock = new ManualClock(Date.parse('2026-03-02T15:00:00Z'));
    const logger = createLogger({ level: 'warn', format: 'json', write: (l) => lines.push(l), clock });
    const a = await admissionOn(server.url, contextFor(clock, { requestTimeoutMs: LEASE_MS, logger }));
    closers.push(() => a.coordinator.close());
    const rules = [{ key: 'combined:second', limit: 20, windowMs: 1000 }];
    const first = await (a.limiter as RedisLimiter).tryAcquire(rules);
    const second = await (a.limiter as RedisLimiter).tryAcquire(rules);
    expect([typeof first, typeof second]).toEqual(['number', 'number']);
    const said = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(said.map((l) => [l.level, l.event, l.coordinator])).toEqual([['warn', 'coordinator-guard', server.url.replace(/\/$/, '')]]);
    expect(String(said[0]!.msg)).toMatch(/^the coordinator redis:\/\/127\.0\.0\.1:\d+\S* has been up less than a minute \(new, or restarted without persistence\): it cannot know what was sent in the minute before, so no request goes out before 2026-03-02T15:00:0\d\.\d{3}Z \(\d s\); a Redis that runs longer costs no wait$/);
    // Once it has passed, a request goes out.
    clock.set(clock.now() + (first as number));
    expect(typeof (await (a.limiter as RedisLimiter).tryAcquire(rules))).toBe('object');
  });
});
