import { describe, expect, it } from 'vitest';
import { SlidingWindow } from '../../../src/emulator/limits/sliding-window.js';

describe('SlidingWindow', () => {
  it('admits iff fewer than N admitted arrivals in (t - W, t]', () => {
    const w = new SlidingWindow(10, 60_000);
    for (let i = 0; i < 10; i++) {
      expect(w.allows(i * 1000)).toBe(true);
      w.record(i * 1000);
    }
    expect(w.allows(59_999)).toBe(false);
    expect(w.used(59_999)).toBe(10);
    expect(w.allows(60_000)).toBe(true); // the arrival at 0 left the window
    w.record(60_000);
    expect(w.allows(60_500)).toBe(false);
    expect(w.allows(61_000)).toBe(true);
    expect(w.used(61_000)).toBe(9);
  });
  it('a clock set backwards rewinds the timeline: later admissions are forgotten once it records', () => {
    const w = new SlidingWindow(2, 1000);
    w.record(10_000);
    w.record(10_100);
    expect(w.allows(10_500)).toBe(false);
    // back in time: nothing admitted in (4000, 5000]
    expect(w.allows(5000)).toBe(true);
    expect(w.used(10_100)).toBe(2);
    w.record(5000);
    expect(w.used(5000)).toBe(1);
    expect(w.allows(5000)).toBe(true);
    w.record(5000);
    expect(w.allows(5999)).toBe(false);
    expect(w.allows(6000)).toBe(true);
    expect(w.used(10_100)).toBe(0);
  });
});
