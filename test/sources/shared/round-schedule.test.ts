/**
 * Polling rounds on a frozen clock: on their offsets while on time, pushed on (never back to back)
 * after a slow round, and within durationSeconds.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { roundsDue } from '../../../src/sources/shared/round-schedule.js';
import type { RoundsConfig } from '../../../src/sources/shared/config-parts.js';

/** The instant each round started, each round taking `took(i)` ms on the clock. */
async function starts(config: RoundsConfig, took: (round: number) => number, cuts: [number, number][] = []): Promise<number[]> {
  const clock = new ManualClock(0);
  const out: number[] = [];
  for await (const _ of roundsDue(config, clock, 0, new AbortController().signal, (cut, of) => cuts.push([cut, of]))) {
    out.push(clock.now());
    clock.advance(took(out.length - 1));
  }
  return out;
}

describe('roundsDue', () => {
  it('rounds on time start on their offsets; a little lateness (timers) moves nothing', async () => {
    expect(await starts({ everySeconds: 3, count: 4 }, () => 50)).toEqual([0, 3000, 6000, 9000]);
    expect(await starts({}, () => 50)).toEqual([0]);
  });

  it('a slow round pushes the next ones on instead of sending them back to back', async () => {
    // The first answer took 10 s: rounds 2 to 4 once went out within 50 ms, four snapshots of one instant.
    expect(await starts({ everySeconds: 3, count: 4 }, (i) => (i === 0 ? 10_000 : 100))).toEqual([0, 10_000, 13_000, 16_000]);
  });

  it('rounds of a duration start within it, pushed or not', async () => {
    expect(await starts({ everySeconds: 10, durationSeconds: 60 }, () => 100)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    const cuts: [number, number][] = [];
    expect(await starts({ everySeconds: 3, durationSeconds: 10 }, (i) => (i === 0 ? 9_000 : 100), cuts)).toEqual([0, 9_000]);
    // Rounds at 0, 3, 6 and 9 s were configured; the two pushed past the end are told, once.
    expect(cuts).toEqual([[2, 4]]);
  });

  it('rounds that all fit tell of no cut', async () => {
    const cuts: [number, number][] = [];
    await starts({ everySeconds: 10, durationSeconds: 60 }, () => 100, cuts);
    await starts({ everySeconds: 3, count: 4 }, (i) => (i === 0 ? 10_000 : 100), cuts);
    expect(cuts).toEqual([]);
  });
});
