/**
 * A Retry-After longer than what is left of a request's retry budget (service.retry.maxTotalMs).
 * Waiting would hold the run, and its output lock, past the budget the pipeline set; asking sooner
 * would disregard the service. So the request fails at once, saying what the service asked and
 * when to run again, instead of as a bare 5xx whose hint points at the network.
 */
import { QuotelakeError } from '../core/errors.js';

export class RetryAfterBeyondBudgetError extends QuotelakeError {
  constructor(cause: QuotelakeError, wait: { readonly askedMs: number; readonly leftMs: number; readonly nowMs: number }) {
    const asked = Math.ceil(wait.askedMs / 1000);
    const left = budgetLeft(wait.leftMs);
    super(
      'QL_RETRY_AFTER',
      `${cause.message}; the service asked for a wait of ${asked} s (Retry-After), longer than the ${left} left of this request's retry budget (service.retry.maxTotalMs)`,
      {
        stage: cause.stage,
        cause,
        hint: `run the same command again after ${new Date(wait.nowMs + wait.askedMs).toISOString()} (it resumes), or raise service.retry.maxTotalMs to wait for it`,
      },
    );
  }
}

/** What is left of the budget: whole seconds, or milliseconds under one (a 500 ms budget read "0 s"). */
function budgetLeft(leftMs: number): string {
  const ms = Math.max(0, Math.floor(leftMs));
  return ms < 1000 ? `${ms} ms` : `${Math.floor(ms / 1000)} s`;
}
