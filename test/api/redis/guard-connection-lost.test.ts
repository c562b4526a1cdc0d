/**
 * A Redis lost during the restart guard's hold (a fresh Redis holds the first requests for about a
 * minute): the waiting admission must fail as "down" when the connection goes, not when the hold
 * ends. The hold is timed on an injected clock that never moves here, so only the lost connection
 * can end the wait.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Sleep } from '../../../src/api/sleep.js';
import { abortReason } from '../../../src/api/sleep.js';
import { CoordinatorDownError } from '../../../src/core/errors.js';
import { ManualClock } from '../../../src/core/clock.js';
import { startRedisServer } from '../../helpers/redis-server.js';
import { admissionOn, contextFor } from './coordinator-fixture.js';

/** A sleep on a clock nobody moves: it ends only when aborted. */
const frozenSleep: Sleep = (_ms, signal) =>
  new Promise<void>((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(abortReason(signal)), { once: true });
  });

describe('the restart guard with its Redis lost', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('fails the held admission with CoordinatorDownError as soon as the connection closes', async () => {
    const server = await startRedisServer();
    closers.push(() => server.stop());
    const clock = new ManualClock(Date.parse('2026-03-02T15:00:00Z'));
    const a = await admissionOn(server.url, { ...contextFor(clock), sleep: frozenSleep });
    closers.push(() => a.coordinator.close());
    const rules = [{ key: 'combined:second', limit: 20, windowMs: 1000 }];
    // A fresh server: the first admission is told to wait for the guard (about a minute).
    const held = a.limiter.acquire(rules);
    let settled = false;
    held.then(() => (settled = true), () => (settled = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    await server.kill();
    const failure = await Promise.race([held.then(() => 'admitted', (e: unknown) => e), new Promise((r) => setTimeout(() => r('still held'), 5000))]);
    expect(failure).toBeInstanceOf(CoordinatorDownError);
    expect((failure as Error).message).toMatch(/^coordinator redis:\/\/127\.0\.0\.1:\d+\S* is unreachable/);
    // Fail closed: nothing was admitted.
    expect(a.limiter.admitted).toBe(0);
  });
});
