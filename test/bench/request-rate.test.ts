import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM module of the benchmarks, no type declarations
import { requestRate } from '../../bench/backfill/request-rate.mjs';

interface Entry {
  arrivedMs: number;
  endedMs: number;
  status: number;
  ret: number;
  kline: boolean;
}

/** n requests arriving every `stepMs` from `fromMs`, each answered after `latencyMs`. */
function steady(n: number, stepMs: number, latencyMs: number, fromMs = 0): Entry[] {
  return Array.from({ length: n }, (_, i) => ({ arrivedMs: fromMs + i * stepMs, endedMs: fromMs + i * stepMs + latencyMs, status: 200, ret: 200, kline: true }));
}

describe('requestRate (the plan utilisation of the backfill bench)', () => {
  it('scores a plan used to its limit as 1 and finds the busiest second', () => {
    // 200 requests, one every 50 ms (20/s), each answered at once: 9.95 s + 0 ms of answers.
    const rate = requestRate(steady(200, 50, 0), 20);
    expect(rate.admitted).toBe(200);
    expect(rate.rejected).toBe(0);
    expect(rate.seconds).toBeCloseTo(9.95, 6);
    expect(rate.utilisation).toBeCloseTo(200 / (20 * 9.95), 6);
    expect(rate.maxInWindow).toBe(20);
    expect(rate.cycleMs).toBeCloseTo(1000, 6);
  });

  it('counts 429 answers (in the envelope or as HTTP status) as rejections, not admissions', () => {
    const log = steady(10, 100, 5);
    log[3]!.ret = 429;
    log[7]!.status = 429;
    const rate = requestRate(log, 20);
    expect(rate.requests).toBe(10);
    expect(rate.admitted).toBe(8);
    expect(rate.rejected).toBe(2);
  });

  it('sees a burst over the limit within a sliding second that a calendar second would split', () => {
    // 15 at 0.6-0.74 s and 15 at 1.0-1.14 s: no calendar second holds more than 15, but
    // [0.6 s, 1.6 s) holds 30.
    const log = [...steady(15, 10, 1, 600), ...steady(15, 10, 1, 1000)];
    expect(requestRate(log, 20).maxInWindow).toBe(30);
  });

  it('splits the slot cycle into the window, the answer latency and the client admitting late', () => {
    // Slots reused every 1,100 ms (20 per 1.1 s), answers taking 40 ms: 60 ms late each time.
    const rate = requestRate(steady(220, 55, 40), 20);
    expect(rate.cycleMs).toBeCloseTo(1100, 6);
    expect(rate.latencyMs).toBeCloseTo(40, 6);
    expect(rate.lateMs).toBeCloseTo(60, 6);
  });
});
