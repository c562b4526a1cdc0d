/**
 * The limits a source that is one stream runs under on a client: on a token pool, those of the one
 * token the stream is kept on; on one token, the client's own. A poller counts its progress plan on
 * them, as `quotelake plan` does, so the line's total is the rounds the run takes.
 */
import type { PlanLimits } from './plans.js';
import type { ServiceClient } from './types.js';

export async function streamLimitsOf(client: ServiceClient, codes?: readonly string[]): Promise<PlanLimits> {
  return (await client.streamLimits?.(codes)) ?? client.limits;
}
