/**
 * The emulator's own plan table (spec 8, limits-rules). The client keeps a separate table on purpose:
 * the two sides meet only at the wire, so a mistake in one cannot hide behind the other.
 */

import { demoToken, isPlanName, PLAN_NAMES, type PlanName } from '../core/plan-names.js';
import { countLimit, type CustomPlan } from '../core/plans-file.js';

export { isPlanName, PLAN_NAMES, type PlanName };

export interface PlanLimits {
  /** A built-in plan, or a custom plan of a plans file. */
  readonly name: string;
  /** Combined sliding window of about one second (Free: 1 per 10 s). A count of +Infinity: no window. */
  readonly perSecond: { readonly count: number; readonly windowMs: number };
  readonly perMinute: { readonly count: number; readonly windowMs: number };
  /** +Infinity: no daily cap. */
  readonly perDay: number;
  /** Minimum gap between two admitted /batch-kline requests. */
  readonly batchKlineGapMs: number;
  /** Each suspension endpoint separately: 1 per this many ms. */
  readonly suspensionGapMs: number;
  /** /depth-tick and /trade-tick serve only this many codes (W9); null = no cap. */
  readonly tickCodeCap: number | null;
  /** /batch-kline data_list items above this are ret 605. */
  readonly batchKlineItemCap: number;
  /** Stock market the plan is limited to (All-* plans), null = everything. */
  readonly market: 'HK' | 'CN' | 'US' | null;
}

const professionalLike = {
  perSecond: { count: 20, windowMs: 1000 },
  perMinute: { count: 1200, windowMs: 60_000 },
  perDay: 1_728_000,
  batchKlineGapMs: 1000,
  suspensionGapMs: 60_000,
  tickCodeCap: null,
  batchKlineItemCap: 500,
} as const;

export const PLANS: Readonly<Record<PlanName, PlanLimits>> = {
  free: {
    name: 'free',
    perSecond: { count: 1, windowMs: 10_000 },
    perMinute: { count: 10, windowMs: 60_000 },
    perDay: 1000,
    batchKlineGapMs: 10_000,
    suspensionGapMs: 60_000,
    tickCodeCap: 5,
    batchKlineItemCap: 5,
    market: null,
  },
  basic: {
    name: 'basic',
    perSecond: { count: 1, windowMs: 1000 },
    perMinute: { count: 60, windowMs: 60_000 },
    perDay: 86_400,
    batchKlineGapMs: 3000,
    suspensionGapMs: 60_000,
    tickCodeCap: null,
    batchKlineItemCap: 100,
    market: null,
  },
  premium: {
    name: 'premium',
    perSecond: { count: 10, windowMs: 1000 },
    perMinute: { count: 600, windowMs: 60_000 },
    perDay: 864_000,
    batchKlineGapMs: 2000,
    suspensionGapMs: 60_000,
    tickCodeCap: null,
    batchKlineItemCap: 200,
    market: null,
  },
  professional: { name: 'professional', ...professionalLike, market: null },
  'all-hk': { name: 'all-hk', ...professionalLike, market: 'HK' },
  'all-cn': { name: 'all-cn', ...professionalLike, market: 'CN' },
  'all-us': { name: 'all-us', ...professionalLike, market: 'US' },
};

/** A custom plan on the emulator's own table of its base plan. */
export function customPlanLimits(custom: CustomPlan): PlanLimits {
  const base = PLANS[custom.base];
  return {
    name: custom.name,
    perSecond:
      custom.perSecond === undefined ? base.perSecond : { count: countLimit(custom.perSecond, base.perSecond.count), windowMs: 1000 },
    perMinute: { count: countLimit(custom.perMinute, base.perMinute.count), windowMs: 60_000 },
    perDay: countLimit(custom.perDay, base.perDay),
    batchKlineGapMs: custom.batchKlineGapMs ?? base.batchKlineGapMs,
    suspensionGapMs: custom.suspensionGapMs ?? base.suspensionGapMs,
    tickCodeCap: custom.tickCodesCap === undefined ? base.tickCodeCap : custom.tickCodesCap,
    batchKlineItemCap: custom.batchKlineItemCap ?? base.batchKlineItemCap,
    market: custom.market === undefined ? base.market : custom.market,
  };
}

/** Demo tokens of decisions I3: one per plan, named after it. */
export const DEMO_TOKENS: Readonly<Record<string, PlanName>> = Object.fromEntries(
  PLAN_NAMES.map((plan) => [demoToken(plan), plan]),
);


/** The project's one redacted form of a token (src/core/redact.ts), for the emulator's messages. */
export { redactToken } from '../core/redact.js';
