/**
 * A request that failed after being sent more than once says how many times and over how long:
 * "HTTP 503 (server fault, …); after 6 attempts over 41 s". Without it a reader cannot tell a
 * service that failed once from one that failed every retry the budget allowed.
 */
import { QuotaExhaustedError, QuotelakeError } from '../core/errors.js';

/** `12 s`, or `2.1 s` under ten seconds (a quick give-up reads as such, not as `2 s`). */
function span(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/**
 * Adds the attempts to the message of `error` (the last attempt's, thrown as it is so that its
 * class and code stay what callers test for). Once only, and not on the daily cap, which no retry
 * could have helped.
 */
export function sayAttempts(error: unknown, attempts: number, elapsedMs: number): void {
  if (attempts < 2 || !(error instanceof QuotelakeError) || error instanceof QuotaExhaustedError) return;
  if (/; after \d+ attempts over /.test(error.message)) return;
  error.message = `${error.message}; after ${attempts} attempts over ${span(elapsedMs)}`;
}
