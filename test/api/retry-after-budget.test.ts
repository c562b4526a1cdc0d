import { describe, expect, it } from 'vitest';
import { QuotelakeError } from '../../src/core/errors.js';
import { RetryAfterBeyondBudgetError } from '../../src/api/retry-after-budget.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const cause = new QuotelakeError('QL_HTTP_5XX', '/quote-b-api/kline: HTTP 503', { stage: 'read' });

describe('RetryAfterBeyondBudgetError', () => {
  it('says what is left in whole seconds, and the instant to run again', () => {
    const error = new RetryAfterBeyondBudgetError(cause, { askedMs: 10_000, leftMs: 4_700, nowMs: NOW });
    expect(error.code).toBe('QL_RETRY_AFTER');
    expect(error.message).toContain('a wait of 10 s (Retry-After), longer than the 4 s left');
    expect(error.hint).toContain('after 2026-11-30T12:00:10.000Z');
  });

  it('says a budget under a second in milliseconds, not "0 s"', () => {
    const error = new RetryAfterBeyondBudgetError(cause, { askedMs: 10_000, leftMs: 500, nowMs: NOW });
    expect(error.message).toContain('longer than the 500 ms left of');
    const spent = new RetryAfterBeyondBudgetError(cause, { askedMs: 10_000, leftMs: -3, nowMs: NOW });
    expect(spent.message).toContain('longer than the 0 ms left of');
  });
});
