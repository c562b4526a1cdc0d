/**
 * `service.retry`: how a request that failed for a reason that may pass (a 5xx, a connection reset
 * or refused, a timeout, a truncated body) is tried again. A cron job that should fail fast asks
 * for fewer attempts; a service known to be flaky for minutes, for more patience. A 429 is not an
 * attempt (the limiter re-queues it), and a Retry-After is honoured as the least wait whatever these say,
 * within maxTotalMs: one longer fails the request at once (QL_RETRY_AFTER), naming when to run again.
 */
import * as z from 'zod';

export interface ServiceRetry {
  readonly attempts?: number | undefined;
  readonly baseDelayMs?: number | undefined;
  readonly maxDelayMs?: number | undefined;
  readonly maxTotalMs?: number | undefined;
}

/** The client's longest wait between attempts when maxDelayMs is left out (api/client.ts DEFAULT_RETRY; a test holds them equal). */
export const DEFAULT_MAX_DELAY_MS = 15_000;

export const serviceRetrySchema = z
  .strictObject({
    attempts: z.int().min(1).max(20).optional().describe('Attempts per request, the first included (default 6; 1 = never retry).'),
    baseDelayMs: z.int().min(1).max(60_000).optional().describe('Backoff base, in milliseconds: attempt n waits a random time up to baseDelayMs × 2^(n-1) (default 250).'),
    maxDelayMs: z.int().min(1).max(600_000).optional().describe('Longest wait between two attempts, in milliseconds (default 15000).'),
    maxTotalMs: z.int().min(1).max(86_400_000).optional().describe('No retry starts later than this after the first attempt, in milliseconds (default 300000).'),
  })
  .superRefine((retry, ctx) => {
    // Against the default too: a maxDelayMs left out still caps every wait.
    const maxDelayMs = retry.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    if (retry.baseDelayMs !== undefined && retry.baseDelayMs > maxDelayMs) {
      const which = retry.maxDelayMs === undefined ? `${maxDelayMs}, its default` : `${maxDelayMs}`;
      ctx.addIssue({ code: 'custom', path: ['baseDelayMs'], message: `is more than maxDelayMs (${which}): the longest wait caps every wait` });
    }
  })
  .describe('Retries of a request that failed for a reason that may pass (5xx, reset, refused, timeout): attempts (default 6), baseDelayMs (250), maxDelayMs (15000), maxTotalMs (300000). A 429 is never an attempt; a Retry-After is the least wait, and one longer than what is left of maxTotalMs fails the request at once (QL_RETRY_AFTER).');
