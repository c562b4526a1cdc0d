/**
 * `planPipeline` on a pool whose tokens cover different markets (all-us, all-hk, a professional
 * one): a pool gives a series only to a token whose plan covers its code, so the time of the codes
 * only some tokens cover is counted on those tokens' rates, not the whole pool's; a poller whose
 * codes no one token covers (its requests carry a family's codes together) is warned of.
 */
import { describe, expect, it } from 'vitest';
import { PLANS, planLimits, poolPlanLimits, streamTokenLimits } from '../../src/api/index.js';
import { components } from '../../src/components.js';
import type { PipelineInput } from '../../src/config/pipeline-schema.js';
import type { PlansDocument } from '../../src/core/plans-file.js';
import { planPipeline } from '../../src/plan/index.js';

const NOW = Date.parse('2026-03-02T15:00:00Z');

function pipeline(source: Record<string, unknown>): PipelineInput {
  return { name: 'p', source: source as PipelineInput['source'], transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } };
}

/** As `quotelake plan` plans a pool: the summed limits, each token's plan, and the token a poller runs on. */
function onPool(source: Record<string, unknown>, plans: Parameters<typeof poolPlanLimits>[0], streamPlan = streamTokenLimits(plans)) {
  return planPipeline(pipeline(source), { plan: poolPlanLimits(plans), poolPlans: plans, streamPlan, now: NOW, registry: components });
}

function onOne(source: Record<string, unknown>, plan: Parameters<typeof poolPlanLimits>[0][number]) {
  return planPipeline(pipeline(source), { plan, now: NOW, registry: components });
}

const CRYPTO = { type: 'kline-history', codes: ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'GOLD'], intervals: ['1m', '1h'], since: '2026-02-01T00:00:00Z', until: '2026-03-01T00:00:00Z' };

describe('plan of a pool with market-limited tokens', () => {
  it('crypto on all-us and professional: timed on the professional token alone, as the run takes it', () => {
    const pool = onPool(CRYPTO, [PLANS['all-us'], PLANS.professional]);
    const alone = onOne(CRYPTO, PLANS.professional);
    expect(pool.totalRequests).toBe(alone.totalRequests);
    expect(pool.totalRequests).toBe(284);
    expect(pool.estimatedMs).toBe(alone.estimatedMs);
    expect(pool.notes).toContain(
      `the ${alone.totalRequests} requests of BTCUSDT, ETHUSDT, EURUSD, GOLD go only to the 1 of 2 tokens whose plan covers them (professional): the time counts those tokens' rates`,
    );
    // Two professional tokens do share them: half the time, or near it.
    const two = onPool(CRYPTO, [PLANS.professional, PLANS.professional]);
    expect(two.estimatedMs).toBeLessThan(alone.estimatedMs * 0.55);
  });

  it('.US and .HK series on slow all-us and all-hk tokens: the longer market decides, not the pool\'s sum', () => {
    const doc: PlansDocument = {
      file: 'plans.yaml',
      plans: [
        { name: 'us-slow', base: 'all-us', perSecond: 1, perMinute: 60 },
        { name: 'hk-slow', base: 'all-hk', perSecond: 1, perMinute: 60 },
      ],
      tokens: undefined,
    };
    const us = planLimits('us-slow', doc);
    const hk = planLimits('hk-slow', doc);
    const intervals = ['1m', '5m', '15m', '30m', '1h', '1d'];
    const both = { type: 'kline-history', codes: ['AAPL.US', 'TSLA.US', '700.HK'], intervals, since: '2026-03-01T00:00:00Z' };
    const pool = onPool(both, [us, hk]);
    const usAlone = onOne({ ...both, codes: ['AAPL.US', 'TSLA.US'] }, us);
    expect([pool.totalRequests, usAlone.totalRequests]).toEqual([18, 12]);
    // Twelve .US requests at 1 a second on the one token that takes them: 11 s, where the pool's 2 a second said 8 s.
    expect(usAlone.estimatedMs).toBe(11_000);
    expect(pool.estimatedMs).toBe(usAlone.estimatedMs);
    expect(pool.outsideMarket).toBeUndefined();
  });

  it('a snapshot of .US and .HK stocks on all-us and all-hk: warned of, since its stock request carries both', () => {
    const snapshot = { type: 'depth-snapshot', codes: ['700.HK', 'AAPL.US', 'TSLA.US'], everySeconds: 10, durationSeconds: 30 };
    const mixed = onPool(snapshot, [PLANS['all-hk'], PLANS['all-us']]);
    expect(mixed.outsideMarket).toEqual({
      codes: ['AAPL.US', 'TSLA.US'],
      hint: "a polling source's request carries the codes of several markets together, and no token of the pool covers them all (all-hk covers only HK stocks (.HK); all-us covers only US stocks (.US)): give each market a pipeline of its own, or add to the pool a token on a plan that covers them all",
    });
    expect(mixed.notes[0]).toMatch(/^a run stops at ret 604 code unauthorized for AAPL\.US,TSLA\.US \(exit 1\); a polling source's request/);
    // One market's codes, or a token that covers both: nothing to warn of.
    expect(onPool({ ...snapshot, codes: ['AAPL.US', 'TSLA.US'] }, [PLANS['all-hk'], PLANS['all-us']]).outsideMarket).toBeUndefined();
    expect(onPool(snapshot, [PLANS['all-hk'], PLANS['all-us'], PLANS.professional], PLANS.professional).outsideMarket).toBeUndefined();
    // Codes no token covers at all keep the pool's own warning.
    const crypto = onPool({ ...snapshot, codes: ['BTCUSDT', 'AAPL.US'] }, [PLANS['all-hk'], PLANS['all-us']]);
    expect(crypto.outsideMarket?.codes).toEqual(['BTCUSDT']);
    expect(crypto.outsideMarket?.hint).toMatch(/^no token of the pool is on a plan that covers them/);
  });

  it('crypto on all-us and a small professional token: only the small one\'s day serves it, so the run needs days', () => {
    const doc: PlansDocument = { file: 'plans.yaml', plans: [{ name: 'pro-small', base: 'professional', perDay: 50 }], tokens: undefined };
    const plans = [PLANS['all-us'], planLimits('pro-small', doc)];
    const remaining = [PLANS['all-us'].perDay, 50];
    const plan = planPipeline(pipeline(CRYPTO), { plan: poolPlanLimits(plans), poolPlans: plans, poolRemaining: remaining, streamPlan: plans[0]!, now: NOW, registry: components });
    expect(plan.totalRequests).toBe(284);
    // The pool's sum has room; the tokens that cover crypto have 50: 50 today, 50 tomorrow, the rest the day after.
    expect(plan.quota.remaining).toBe(PLANS['all-us'].perDay + 50);
    expect(plan.coveredQuotaShort).toEqual({ codes: CRYPTO.codes, requests: 284, remaining: 50 });
    expect(plan.quota.days).toBe(6);
    expect(plan.notes).toContain(
      'the 284 requests of BTCUSDT, ETHUSDT, EURUSD, GOLD exceed the 50 left today of the tokens whose plan covers them (pro-small), each request counted once: 234 wait for the reset; the run stops cleanly when those are used up and resumes after the reset',
    );
    // With room on them: nothing said.
    const roomy = planPipeline(pipeline(CRYPTO), { plan: poolPlanLimits(plans), poolPlans: plans, poolRemaining: [0, 300], streamPlan: plans[0]!, now: NOW, registry: components });
    expect(roomy.coveredQuotaShort).toBeUndefined();
  });

  it('overlapping cover (a professional token beside all-us and all-hk ones): its requests left count once, not toward .US and crypto both', () => {
    const doc: PlansDocument = {
      file: 'plans.yaml',
      plans: [
        { name: 'us-small', base: 'all-us', perDay: 1 },
        { name: 'pro-small', base: 'professional', perDay: 2 },
      ],
      tokens: undefined,
    };
    const plans = [planLimits('us-small', doc), PLANS['all-hk'], planLimits('pro-small', doc)];
    const mix = { type: 'kline-history', codes: ['AAPL.US', 'TSLA.US', 'BTCUSDT', 'ETHUSDT', '700.HK'], intervals: ['1d'], since: '2026-02-01T00:00:00Z', until: '2026-03-01T00:00:00Z' };
    const on = (poolRemaining: number[]) =>
      planPipeline(pipeline(mix), { plan: poolPlanLimits(plans), poolPlans: plans, poolRemaining, streamPlan: plans[0]!, now: NOW, registry: components });
    const plan = on([1, PLANS['all-hk'].perDay, 2]);
    // One request a series: .US 2 (us-small or pro-small), crypto 2 (pro-small only), .HK 1. Each group
    // fits its tokens' sum (3, 2, 1,728,002), so this was said to fit; pro-small's 2 serve crypto or .US, not both.
    expect(plan.totalRequests).toBe(5);
    expect(plan.coveredQuotaShort).toEqual({ codes: ['AAPL.US', 'TSLA.US', 'BTCUSDT', 'ETHUSDT'], requests: 4, remaining: 3 });
    expect(plan.quota.days).toBe(2);
    expect(plan.notes).toContain(
      'the 4 requests of AAPL.US, TSLA.US, BTCUSDT, ETHUSDT exceed the 3 left today of the tokens whose plan covers them (us-small, pro-small), each request counted once: 1 waits for the reset; the run stops cleanly when those are used up and resumes after the reset',
    );
    // One more request left on us-small: all four fit, nothing said.
    const room = on([2, PLANS['all-hk'].perDay, 2]);
    expect(room.coveredQuotaShort).toBeUndefined();
    expect(room.notes.filter((n) => n.includes('for the reset;'))).toEqual([]);
  });
});
