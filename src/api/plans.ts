/**
 * The client's own copy of the plan limits (spec 8 as counted by the project's limit rules).
 * Deliberately not imported from the emulator: the two sides meet only at the wire, so a wrong
 * number on one side shows up as a 429 in the integration tests instead of hiding.
 */

import { didYouMean } from '../core/did-you-mean.js';
import { ConfigError, PlansFileError } from '../core/errors.js';
import { isPlanName, PLAN_NAMES, type PlanName } from '../core/plan-names.js';
import type { StockMarket } from '../catalog/types.js';
import { countLimit, findCustomPlan, knownPlanNames, type CustomPlan, type PlansDocument } from '../core/plans-file.js';

export { isPlanName, PLAN_NAMES, type PlanName };

/** "At most `limit` admitted requests in any sliding window of `windowMs`"; `limit` +Infinity = no limit. */
export interface WindowLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export interface PlanLimits {
  /** A built-in plan's name, or a custom plan's from a plans file. */
  readonly name: string;
  /** Combined per-second window (every operation counts). */
  readonly perSecond: WindowLimit;
  /** Combined per-minute window (every operation counts). */
  readonly perMinute: WindowLimit;
  /** Admitted requests per calendar day in quotaTimeZone; +Infinity = no daily cap. */
  readonly perDay: number;
  /** /batch-kline minimum gap: 1 request per `batchKlineGapMs`. */
  readonly batchKlineGapMs: number;
  /** Each suspension endpoint (sse, nyse, nasdaq separately): 1 per this many ms. */
  readonly suspensionGapMs: number;
  /** Codes served per /depth-tick or /trade-tick request; `null` = only the 8 KiB URL bounds it. */
  readonly tickCodesCap: number | null;
  /** Items per /batch-kline request (over it: ret 605). */
  readonly batchKlineItemCap: number;
  /** The one stock market the plan covers (the All-* plans: ret 604 for any other code); absent = every market. */
  readonly market?: StockMarket;
}

const SECOND = 1000;
const MINUTE = 60_000;

function plan(
  name: PlanName,
  perSecond: WindowLimit,
  perMinute: number,
  perDay: number,
  batchKlineGapMs: number,
  tickCodesCap: number | null,
  batchKlineItemCap: number,
  market?: StockMarket,
): PlanLimits {
  return Object.freeze({
    name,
    perSecond: Object.freeze(perSecond),
    perMinute: Object.freeze({ limit: perMinute, windowMs: MINUTE }),
    perDay,
    batchKlineGapMs,
    suspensionGapMs: MINUTE,
    tickCodesCap,
    batchKlineItemCap,
    ...(market !== undefined ? { market } : {}),
  });
}

const TOP = (name: PlanName, market?: StockMarket): PlanLimits =>
  plan(name, { limit: 20, windowMs: SECOND }, 1200, 1_728_000, 1000, null, 500, market);

export const PLANS: Readonly<Record<PlanName, PlanLimits>> = Object.freeze({
  free: plan('free', { limit: 1, windowMs: 10 * SECOND }, 10, 1000, 10_000, 5, 5),
  basic: plan('basic', { limit: 1, windowMs: SECOND }, 60, 86_400, 3000, null, 100),
  premium: plan('premium', { limit: 10, windowMs: SECOND }, 600, 864_000, 2000, null, 200),
  professional: TOP('professional'),
  'all-hk': TOP('all-hk', 'HK'),
  'all-cn': TOP('all-cn', 'CN'),
  'all-us': TOP('all-us', 'US'),
});

/** True when a window or count limit is lifted ("unlimited" in a plans file). */
export function isUnlimited(limit: number): boolean {
  return limit === Number.POSITIVE_INFINITY;
}

/** True when the plan holds any request back (a finite window or a gap): otherwise nothing is paced. */
export function pacesAnything(limits: PlanLimits): boolean {
  return !isUnlimited(limits.perSecond.limit) || !isUnlimited(limits.perMinute.limit) || limits.batchKlineGapMs > 0 || limits.suspensionGapMs > 0;
}

/** A custom plan on the client's own table of its base plan. */
export function customPlanLimits(custom: CustomPlan): PlanLimits {
  const base = PLANS[custom.base];
  // As the emulator reads it: the plan's own market (null lifts the base's), else the base's.
  const market = custom.market === undefined ? base.market : (custom.market ?? undefined);
  const perSecond: WindowLimit =
    custom.perSecond === undefined ? base.perSecond : { limit: countLimit(custom.perSecond, base.perSecond.limit), windowMs: SECOND };
  return Object.freeze({
    name: custom.name,
    perSecond: Object.freeze(perSecond),
    perMinute: Object.freeze({ limit: countLimit(custom.perMinute, base.perMinute.limit), windowMs: MINUTE }),
    perDay: countLimit(custom.perDay, base.perDay),
    batchKlineGapMs: custom.batchKlineGapMs ?? base.batchKlineGapMs,
    suspensionGapMs: custom.suspensionGapMs ?? base.suspensionGapMs,
    tickCodesCap: custom.tickCodesCap === undefined ? base.tickCodesCap : custom.tickCodesCap,
    batchKlineItemCap: custom.batchKlineItemCap ?? base.batchKlineItemCap,
    ...(market !== undefined ? { market } : {}),
  });
}

/**
 * The limits of a plan by name: a built-in plan, or a custom plan of `plans` (a plans file). Anything
 * else throws a ConfigError naming the valid plans (a PlansFileError naming the file when there is one).
 */
export function planLimits(name: string, plans?: PlansDocument): PlanLimits {
  // startEmulator takes the list itself (customPlans), the client the document: an easy mix-up that
  // was a bare TypeError ("reading 'find'").
  if (plans !== undefined && !Array.isArray((plans as { plans?: unknown } | null)?.plans)) {
    const given = plans === null ? 'null' : Array.isArray(plans) ? 'a list of plans' : `a ${typeof plans} without a plans list`;
    throw new ConfigError(`plans must be what readPlansFile() returns ({ file, plans: [...] }), and was given ${given}`, {}, undefined, "createClient({ plan, plans: await readPlansFile('plans.yaml') }); startEmulator takes the list: { customPlans: doc.plans }");
  }
  if (isPlanName(name)) return PLANS[name];
  const custom = findCustomPlan(plans, name);
  if (custom) return customPlanLimits(custom);
  const names = knownPlanNames(plans);
  const known = names.join(', ');
  const near = didYouMean(name, names);
  const guess = near !== undefined ? `; did you mean "${near}"?` : '';
  if (plans) throw new PlansFileError(plans.file, `plan "${name}" is neither built in nor defined here${guess} (known plans: ${known})`);
  throw new ConfigError(`unknown plan "${name}"${guess} (expected one of ${known})`, {}, undefined, 'give one of the plans named, or define yours in a plans file (plans:)');
}
