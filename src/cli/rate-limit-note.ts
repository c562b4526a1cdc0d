/**
 * A run the service kept refusing with 429 `rate limit` while the client kept to its plan's
 * windows: the likely cause is a token on a lower plan than the one configured (the shipped
 * pipelines say professional), else another process using the same token. The run still completes
 * (a 429 is sent again after a hold), so without this note the only sign is a slow run.
 */
import type { RequestOutcomes } from '../api/index.js';
import { n } from './progress/progress-figures.js';

/** A few spurious 429s are a flaky service (decisions R3); a tenth of the answers is a pattern. */
const MIN_REFUSALS = 3;
const MIN_SHARE = 0.1;

/**
 * `coordinator`: the Redis (no password) the run shared its windows through. The other process then
 * is one outside it: another Redis, or another database of this one, counts a plan of its own.
 */
export function rateLimitNote(plan: string, outcomes: RequestOutcomes | undefined, coordinator?: string): string | undefined {
  if (!outcomes || outcomes.rateLimited < MIN_REFUSALS || outcomes.rateLimited < outcomes.answered * MIN_SHARE) return undefined;
  const other =
    coordinator === undefined
      ? 'otherwise another process is using the same token'
      : `otherwise another process is using the same token without sharing ${coordinator}: give every process on the token this --coordinator, ` +
        'the same Redis and the same database (another database, or another Redis, counts a plan of its own)';
  return (
    `the service refused ${n(outcomes.rateLimited)} of ${n(outcomes.answered)} answered requests with 429 (rate limit) although they kept to the ${plan} plan's limits; ` +
    `each was held and sent again, which slowed the run. If the token's plan is lower than ${plan}, set service.plan or --plan to it; ` +
    other
  );
}
