import { describe, expect, it } from 'vitest';
import { settleRequests } from '../../src/api/settle-requests.js';
import { ApiError, QuotaExhaustedError } from '../../src/core/errors.js';

const cap = () => new QuotaExhaustedError({ resetAt: new Date('2026-03-05T00:00:00Z'), used: 1000, limit: 1000 });

describe('settleRequests', () => {
  it('the cap part-way: a new stop that carries what the other requests received; none received: the stop as it came', async () => {
    const result = { ticks: ['a'] };
    const shared = cap();
    const error = await settleRequests([Promise.resolve(), Promise.reject(shared)], result, (r) => r.ticks.length > 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(error).not.toBe(shared);
    expect((error as QuotaExhaustedError).partial).toBe(result);
    expect((error as QuotaExhaustedError).resetAt).toEqual(shared.resetAt);
    const none = await settleRequests([Promise.reject(shared)], { ticks: [] }, (r) => r.ticks.length > 0).catch((e: unknown) => e);
    expect(none).toBe(shared);
  });

  it('any other failure is thrown as it came, also beside the cap, once every request has settled', async () => {
    const other = new ApiError({ ret: 400, serviceMessage: 'request data param invalid', endpoint: '/x', retryable: false });
    let late = false;
    const slow = new Promise<void>((resolve) => setTimeout(() => ((late = true), resolve()), 10));
    const error = await settleRequests([Promise.reject(cap()), Promise.reject(other), slow], {}, () => true).catch((e: unknown) => e);
    expect(error).toBe(other);
    expect(late).toBe(true);
  });
});
