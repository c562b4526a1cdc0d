/**
 * `service.timeouts`: how long one request may take. Their sum is also the lease of a request's slot
 * in the shared limiter (`--coordinator`): a process that dies mid-request never releases its slot,
 * which is freed when the lease ends, and after an empty Redis restart every window stays closed
 * for max(window, lease). A short timeout makes both short; too short fails slow answers.
 */
import * as z from 'zod';

export interface ServiceTimeouts {
  readonly connectMs?: number | undefined;
  readonly headersMs?: number | undefined;
  readonly bodyMs?: number | undefined;
}

/** Below 100 ms a loopback answer under load already times out; above an hour is a hang, not a wait. */
const ms = (what: string, byDefault: number) =>
  z.int().min(100).max(3_600_000).optional().describe(`${what}, in milliseconds (default ${byDefault}).`);

export const serviceTimeoutsSchema = z
  .strictObject({
    connectMs: ms('Longest wait for the TCP connection', 5000),
    headersMs: ms('Longest wait for the answer\'s headers', 30_000),
    bodyMs: ms('Longest pause between two chunks of the answer\'s body', 30_000),
  })
  .describe('Request timeouts: connectMs (default 5000), headersMs (30000), bodyMs (30000). Their sum is also how long a slot of a request that never ended stays taken in a shared limiter (--coordinator).');
