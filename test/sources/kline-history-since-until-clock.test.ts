/**
 * Validation refuses an `until` before `since` only when that holds at every instant (two dates,
 * or two spans): a date against a span depends on the command's `--clock`, never the machine's date.
 */
import { describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { validatePipeline } from '../../src/config/parse-pipeline.js';
import { planPipeline } from '../../src/plan/index.js';

function input(since: string, until: string) {
  return { name: 'p', source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since, until }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } };
}

describe('kline-history since/until check', () => {
  it('a span since and a date until that are in order at the plan\'s clock are planned, whatever the machine date', () => {
    // 3d back from 2020-01-10 is 2020-01-07, before the until of 2020-01-09: in order then (and
    // out of order on any machine date after 2020-01-12).
    const plan = planPipeline(input('3d', '2020-01-09'), { plan: 'professional', now: Date.parse('2020-01-10T00:00:00Z'), registry: components });
    expect(plan.totalRequests).toBe(1);
    expect(plan.streams[0]!.records).toBe(49);
  });

  it('out of order at the plan\'s clock: a note, no request', () => {
    const plan = planPipeline(input('3d', '2020-01-09'), { plan: 'professional', now: Date.parse('2020-01-20T00:00:00Z'), registry: components });
    expect(plan.totalRequests).toBe(0);
    expect(plan.notes.some((n) => n.includes('is before since'))).toBe(true);
  });

  it('two dates, or two spans, out of order are still refused', () => {
    expect(() => validatePipeline(input('2020-01-09', '2020-01-08'), { registry: components })).toThrow(/since \(2020-01-09\) is after until \(2020-01-08\)/);
    expect(() => validatePipeline(input('1d', '3d'), { registry: components })).toThrow(/since \(1d\) is after until \(3d\)/);
    expect(() => validatePipeline(input('3d', '1d'), { registry: components })).not.toThrow();
  });
});
