/** A clock is virtual by what it can do (`set`), not by its class: a user's own clock is treated like ManualClock. */
import { describe, expect, it } from 'vitest';
import { isVirtualClock, ManualClock, shiftedClock, systemClock } from '../../src/core/clock.js';
import { clockSleep } from '../../src/sources/shared/clock-sleep.js';

describe('virtual clocks', () => {
  it('ManualClock and any clock with set are virtual; the system and shifted clocks are real time', () => {
    expect(isVirtualClock(new ManualClock(0))).toBe(true);
    expect(isVirtualClock({ now: () => 0, set: () => undefined })).toBe(true);
    expect(isVirtualClock(systemClock)).toBe(false);
    expect(isVirtualClock(shiftedClock(0))).toBe(false);
    expect(isVirtualClock(undefined)).toBe(false);
  });

  it("a source's wait moves a user's own virtual clock instead of sleeping", async () => {
    let ms = 1_000;
    const own = { now: () => ms, set: (to: number) => void (ms = to) };
    // An hour: on real timers this would outlast the test's timeout.
    await clockSleep(own)(3_600_000, new AbortController().signal);
    expect(ms).toBe(3_601_000);
  });
});
