/**
 * The Lua limiter keeps SlidingWindowLimiter's rule exactly: driven in lockstep through the same
 * random sequence of admissions, releases and cancels on two manual clocks, both admit the same
 * requests at the same instants, and name the same time to ask again. The admission times also hold
 * every window by the independent oracle.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter, type Permit, type WindowRule } from '../../../src/api/rate-limiter.js';
import { manualSleep } from '../../../src/api/sleep.js';
import { ManualClock } from '../../../src/core/clock.js';
import { mulberry32 } from '../../../src/core/mulberry32.js';
import { useRedisServer } from '../../helpers/redis-server.js';
import { windowViolations } from '../../helpers/sliding-window-oracle.js';
import { admissionOn, contextFor, flush, settled } from './coordinator-fixture.js';

const SECOND: WindowRule = { key: 'combined:second', limit: 3, windowMs: 1000 };
const MINUTE: WindowRule = { key: 'combined:minute', limit: 40, windowMs: 60_000 };
const OP: WindowRule = { key: 'op:kline', limit: 2, windowMs: 1000 };
const GAP: WindowRule = { key: 'gap:batch-kline', limit: 1, windowMs: 2000 };
const RULE_SETS: readonly (readonly WindowRule[])[] = [[SECOND, MINUTE, OP], [SECOND, MINUTE, GAP], [SECOND, MINUTE]];
const START = Date.parse('2026-03-02T10:00:00Z');

interface Held {
  readonly local: Permit;
  readonly shared: Permit;
  readonly until: number;
  readonly cancel: boolean;
}

describe('the Redis limiter agrees with the in-process limiter', () => {
  const server = useRedisServer();
  let close: (() => Promise<void>) | undefined;

  beforeEach(async () => {
    await flush(server().url);
    await settled(server().url);
  });
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  for (const seed of [1, 7, 42]) {
    it(`on a random sequence of 400 steps (seed ${seed})`, async () => {
      const random = mulberry32(seed);
      const localClock = new ManualClock(START);
      const sharedClock = new ManualClock(START);
      const local = new SlidingWindowLimiter({ clock: localClock, sleep: manualSleep(localClock) });
      const { coordinator, limiter: shared } = await admissionOn(server().url, contextFor(sharedClock));
      close = () => coordinator.close();
      const held: Held[] = [];
      const admittedAt = new Map<string, number[]>();
      let now = START;
      let admitted = 0;
      let refused = 0;
      for (let step = 0; step < 400; step++) {
        now += [0, 0, 1, 37, 250, 333, 999, 1000, 2000][Math.floor(random() * 9)]!;
        localClock.set(now);
        sharedClock.set(now);
        // Releases and cancels that are due, in the same order on both.
        for (const h of held.filter((x) => x.until <= now)) {
          held.splice(held.indexOf(h), 1);
          if (h.cancel) {
            h.local.cancel();
            h.shared.cancel();
          } else {
            h.local.release();
            h.shared.release();
          }
        }
        const rules = RULE_SETS[Math.floor(random() * RULE_SETS.length)]!;
        const expected = local.earliestAdmission(rules, now);
        const got = await shared.tryAcquire(rules);
        if (expected <= now) {
          expect(typeof got, `step ${step}: admitted in process`).toBe('object');
          const localPermit = await local.acquire(rules);
          const latency = [0, 0, 10, 400, 1500][Math.floor(random() * 5)]!;
          const cancel = random() < 0.1;
          held.push({ local: localPermit, shared: got as Permit, until: now + latency, cancel });
          // A cancelled request never reached the server: it leaves no stamp, and the oracle skips it.
          if (!cancel) for (const r of rules) admittedAt.set(r.key, [...(admittedAt.get(r.key) ?? []), now]);
          admitted++;
        } else {
          expect(typeof got, `step ${step}: refused in process`).not.toBe('object');
          // In-flight requests alone fill a window: both wait for a release (Redis: unless another
          // window already names a later time, which it then gives).
          if (expected === Number.POSITIVE_INFINITY) {
            const others = rules.filter((r) => local.earliestAdmission([r], now) !== Number.POSITIVE_INFINITY);
            const later = local.earliestAdmission(others, now);
            expect(got).toBe(later > now ? later - now : 'release');
          }
          else expect(got, `step ${step}: time to ask again`).toBe(expected - now);
          refused++;
        }
      }
      expect(admitted).toBeGreaterThan(50);
      expect(refused).toBeGreaterThan(50);
      for (const rule of [SECOND, MINUTE, OP, GAP]) {
        expect(windowViolations(admittedAt.get(rule.key) ?? [], rule.limit, rule.windowMs), rule.key).toBe(0);
      }
    });
  }
});
