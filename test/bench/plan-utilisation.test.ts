import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module of the benchmarks, no type declarations
import { planUtilisation } from '../../bench/plan-utilisation.mjs';

const utilisation = planUtilisation as (times: number[], limit: number, windowMs?: number) => number;

/** `turns` bursts of `limit` arrivals `periodMs` apart, then `last` more at the next turn. */
function bursts(turns: number, limit: number, periodMs: number, last: number): number[] {
  const times: number[] = [];
  for (let t = 0; t < turns; t++) for (let i = 0; i < limit; i++) times.push(t * periodMs);
  for (let i = 0; i < last; i++) times.push(turns * periodMs);
  return times;
}

describe('planUtilisation (the worker-scale and shared-limiter benches)', () => {
  it('scores a limiter that uses every window in full as 1, however much of its last window the work fills', () => {
    expect(utilisation(bursts(76, 20, 1000, 1), 20)).toBe(1);
    expect(utilisation(bursts(76, 20, 1000, 20), 20)).toBe(1);
    // The steady-state formula, (N - 20) / span / 20, read 0.9875 for the first of these.
    const times = bursts(76, 20, 1000, 1);
    expect((times.length - 20) / 76 / 20).toBeCloseTo(0.9875, 4);
  });

  it('charges each late turn of the window, in any order of arrivals', () => {
    const late = bursts(80, 20, 1010, 20).reverse();
    expect(utilisation(late, 20)).toBeCloseTo(1000 / 1010, 10);
  });

  it('charges arrivals spread evenly at the plan rate for the burst they did not take at the start', () => {
    // 1,621 arrivals 50 ms apart take 81 s; the plan lets them take 81 s in bursts: 1.
    expect(utilisation(Array.from({ length: 1621 }, (_, i) => i * 50), 20)).toBe(1);
    // 1,640 take 81.95 s where bursts take 81 s.
    expect(utilisation(Array.from({ length: 1640 }, (_, i) => i * 50), 20)).toBeCloseTo(81 / 81.95, 10);
  });

  it('has nothing to measure when every arrival fits one window', () => {
    expect(utilisation([0, 1, 2], 20)).toBeNaN();
  });
});
