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

export function rateLimitNote(plan: string, outcomes: RequestOutcomes | undefined): string | undefined {
  if (!outcomes || outcomes.rateLimited < MIN_REFUSALS || outcomes.rateLimited < outcomes.answered * MIN_SHARE) return undefined;
  return (
    `the service refused ${n(outcomes.rateLimited)} of ${n(outcomes.answered)} answered requests with 429 (rate limit) although they kept to the ${plan} plan's limits; ` +
    `each was held and sent again, which slowed the run. If the token's plan is lower than ${plan}, set service.plan or --plan to it; ` +
    'otherwise another process is using the same token'
  );
}
