/**
 * The run's stop at the daily quota said for a pool whose tokens used up are the only cover of
 * some codes (api/pool-quota-stop.ts): which tokens (redacted, as the summary's `token N` rows),
 * which codes, and that the tokens with quota left do not cover them. The plain "the daily request
 * quota is used up" read as if the whole pool were spent.
 */
import type { PoolQuotaStop, PoolTokenNamed } from '../api/index.js';
import { n } from './progress/progress-figures.js';

const SHOWN_CODES = 6;

/** `token 2 (abcd… [1a2b3c4d], plan pro-small) of the 2 tokens of the pool …; token 1 (…) still has …`. */
export function poolQuotaStopSaid(stop: PoolQuotaStop, poolSize: number): string {
  const one = stop.tokens.length === 1;
  const codes = shownCodes(stop.codes);
  const them = stop.codes.length === 1 ? 'that code' : 'those codes';
  const left = stop.tokensWithQuota.map((t) => `${tokenNamed(t)}: ${n(t.left)} requests left`).join('; ');
  const others = stop.tokensWithQuota.length === 1 ? `the other token, ${left}, still has quota today but does not cover ${them}` : `the other tokens (${left}) still have quota today but none covers ${them}`;
  return (
    `the daily request quota of ${stop.tokens.map(tokenNamed).join(' and ')} of the ${poolSize} tokens of the pool is used up, ` +
    `and ${one ? 'it is the only token' : 'they are the only tokens'} whose plan covers ${codes}; ${others}`
  );
}

/** The stop's fields on a JSON log line (`run`'s quota-exhausted notice, a worker's slice-quota line). */
export function poolQuotaStopFields(stop: PoolQuotaStop): Pick<PoolQuotaStop, 'tokens' | 'codes' | 'tokensWithQuota'> {
  return { tokens: stop.tokens, codes: stop.codes, tokensWithQuota: stop.tokensWithQuota };
}

/** What to do besides waiting for the reset. */
export function poolQuotaStopHint(stop: PoolQuotaStop): string {
  return `To fetch ${stop.codes.length === 1 ? 'it' : 'them'} before ${stop.resetAt}, add to the pool a token on a plan that covers ${shownCodes(stop.codes)}.`;
}

function tokenNamed(t: PoolTokenNamed): string {
  return `token ${t.tokenIndex} (${t.token} [${t.tokenHash.slice(0, 8)}], plan ${t.plan})`;
}

function shownCodes(codes: readonly string[]): string {
  return codes.length > SHOWN_CODES ? `${codes.slice(0, SHOWN_CODES).join(', ')} and ${codes.length - SHOWN_CODES} more` : codes.join(', ');
}
