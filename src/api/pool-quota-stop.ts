/**
 * Why a pool's run stopped at the daily quota while some of its tokens still had quota left: the
 * tokens that used up their day were the only ones whose plan covers some of the codes (a crypto
 * code on a pool of an all-us and a professional token). "The daily quota is used up" alone reads
 * as if the whole pool were spent, and waiting is not the only way out: a token on a plan that
 * covers those codes is another.
 */
import { planCoversCodes } from './plan-market.js';
import type { PlanLimits } from './plans.js';

/** A token of the pool as messages name it: never the token, only its redacted form and hash. */
export interface PoolTokenNamed {
  /** 1-based place in the pool, as the summary's `token N` rows. */
  readonly tokenIndex: number;
  /** Redacted (`abcd…`). */
  readonly token: string;
  readonly tokenHash: string;
  readonly plan: string;
}

/** One token's day as the pool sees it after the run. */
export interface PoolTokenDay extends PoolTokenNamed {
  readonly limits: PlanLimits;
  /** The day is used up: by our count, or the service said so (its `daily limit exceeded`). */
  readonly usedUp: boolean;
  readonly left: number;
  readonly resetAt: Date;
}

export interface PoolQuotaStop {
  /** The tokens whose day is used up that alone cover `codes`. */
  readonly tokens: readonly (PoolTokenNamed & { readonly resetAt: string })[];
  /** Codes of the run that only those tokens cover (in the pipeline's order). */
  readonly codes: readonly string[];
  /** The tokens with quota left today: none of them covers any of `codes`. */
  readonly tokensWithQuota: readonly (PoolTokenNamed & { readonly left: number })[];
  /** The earliest reset of `tokens`: the stopped codes can be fetched again from then. */
  readonly resetAt: string;
}

/**
 * The stop of a pool some of whose tokens still have quota: the codes every covering token of
 * which has used up its day. Undefined when every token is used up (the whole pool is spent, as
 * the plain message says), or no code is left without a token (codes no token covers at all stop
 * at the service's 604 instead, not here).
 */
export function poolQuotaStop(codes: readonly string[], days: readonly PoolTokenDay[]): PoolQuotaStop | undefined {
  const open = days.filter((d) => !d.usedUp);
  if (open.length === 0 || open.length === days.length) return undefined;
  const stranded = [...new Set(codes)].filter((code) => {
    const covering = days.filter((d) => planCoversCodes(d.limits, [code]));
    return covering.length > 0 && covering.every((d) => d.usedUp);
  });
  if (stranded.length === 0) return undefined;
  const spent = days.filter((d) => d.usedUp && stranded.some((code) => planCoversCodes(d.limits, [code])));
  const resetAt = spent.reduce((a, d) => (d.resetAt < a ? d.resetAt : a), spent[0]!.resetAt);
  return {
    tokens: spent.map((d) => ({ ...named(d), resetAt: d.resetAt.toISOString() })),
    codes: stranded,
    tokensWithQuota: open.map((d) => ({ ...named(d), left: d.left })),
    resetAt: resetAt.toISOString(),
  };
}

function named(d: PoolTokenNamed): PoolTokenNamed {
  return { tokenIndex: d.tokenIndex, token: d.token, tokenHash: d.tokenHash, plan: d.plan };
}
