/**
 * A pool's short windows combine into one that admits a whole number of requests: free's 1 per
 * 10 s and basic's 1 per second made "1.1 per second", which no schedule can count (the plan's
 * time came out NaN, "about NaNhNaNm").
 */
import { describe, expect, it } from 'vitest';
import { PLANS, poolPlanLimits } from '../../src/api/index.js';
import { scheduleRequests } from '../../src/plan/index.js';

describe('a pool of free and basic', () => {
  const pool = poolPlanLimits([PLANS.free, PLANS.basic]);

  it('admits 11 requests per 10 s and 70 a minute', () => {
    expect(pool.perSecond).toEqual({ limit: 11, windowMs: 10_000 });
    expect(pool.perMinute).toEqual({ limit: 70, windowMs: 60_000 });
  });

  it('schedules on them: the 12th request waits 10 s', () => {
    expect(scheduleRequests([{ endpoint: '/quote-b-api/kline', requests: 11 }], pool)).toBe(0);
    expect(scheduleRequests([{ endpoint: '/quote-b-api/kline', requests: 12 }], pool)).toBe(10_000);
  });
});
