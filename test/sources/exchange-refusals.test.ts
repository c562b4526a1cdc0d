/**
 * One exchange the service put off for longer than the retry budget (a Retry-After past
 * service.retry.maxTotalMs) is that exchange's alone to bear, as its bare 5xx was: named as not
 * delivered while the others are kept; only when every exchange failed is it the run's failure.
 */
import { describe, expect, it } from 'vitest';
import { RetryAfterBeyondBudgetError } from '../../src/api/retry-after-budget.js';
import { TransportError } from '../../src/core/errors.js';
import { ExchangeRefusals } from '../../src/sources/trading-halts/exchange-refusals.js';

const putOff = (exchange: string) =>
  new RetryAfterBeyondBudgetError(new TransportError(`/api/suspension/${exchange}`, 'HTTP 503 (server fault)'), { askedMs: 900_000, leftMs: 300_000, nowMs: Date.UTC(2026, 10, 20) });

describe('ExchangeRefusals and a Retry-After past the budget', () => {
  it('is absorbed for one exchange of three, and thrown once all three failed', () => {
    const said: [string, boolean][] = [];
    const refusals = new ExchangeRefusals(3, (exchange, _error, othersDelivered) => said.push([exchange, othersDelivered]));
    expect(refusals.absorb('sse', putOff('sse'))).toBe(true);
    expect(refusals.absorb('nyse', putOff('nyse'))).toBe(true);
    const last = putOff('nasdaq');
    expect(() => refusals.absorb('nasdaq', last)).toThrow(/^\/api\/suspension\/sse: HTTP 503 \(server fault\); the service asked for a wait of 900 s \(Retry-After\), longer than the 300 s left/);
    // Each is said, and none as if another exchange's records were kept.
    expect(said).toEqual([['sse', false], ['nyse', false], ['nasdaq', false]]);
  });
});

describe('ExchangeRefusals: what a failed exchange is said with', () => {
  it('waits for the last exchange to settle, then says whether any exchange delivered', () => {
    const said: [string, boolean][] = [];
    const refusals = new ExchangeRefusals(3, (exchange, _error, othersDelivered) => said.push([exchange, othersDelivered]));
    expect(refusals.absorb('sse', putOff('sse'))).toBe(true);
    refusals.deliveredOne();
    expect(said).toEqual([]);
    expect(refusals.absorb('nasdaq', putOff('nasdaq'))).toBe(true);
    expect(said).toEqual([['sse', true], ['nasdaq', true]]);
  });

  it('an exchange stopped at the quota delivered nothing either', () => {
    const said: [string, boolean][] = [];
    const refusals = new ExchangeRefusals(2, (exchange, _error, othersDelivered) => said.push([exchange, othersDelivered]));
    expect(refusals.absorb('sse', putOff('sse'))).toBe(true);
    refusals.endedOtherwise();
    expect(said).toEqual([['sse', false]]);
  });
});
