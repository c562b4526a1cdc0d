/**
 * The `outcome` label of `quotelake_requests_total`: what became of one HTTP attempt, from the
 * client's own report (RequestInfo.outcome and the HTTP status). Structural input, so this folder
 * needs nothing from src/api.
 */

export const REQUEST_OUTCOMES = [
  'ok',
  'rate_limited',
  'quota_exhausted',
  'server_error',
  'api_error',
  'transport_error',
  'aborted',
  'refused',
] as const;

export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

export interface AttemptReport {
  /** RequestInfo.outcome: ok, api-error, rate-limited, quota-exhausted, transport-error, aborted. */
  readonly outcome: string;
  readonly status?: number | undefined;
}

export function requestOutcome(report: AttemptReport): RequestOutcome {
  switch (report.outcome) {
    case 'ok':
      return 'ok';
    case 'rate-limited':
      return 'rate_limited';
    case 'quota-exhausted':
      return 'quota_exhausted';
    case 'aborted':
      return 'aborted';
    case 'api-error':
      // An answer the service meant (a ret other than 200, a suspension HTTP 500 whose error names
      // the cause: S5 gives every suspension error status 500, so the status alone says nothing).
      return 'api_error';
    default:
      // A failure on the way: a 5xx answer without a meaningful body (502, 503, 504) is the
      // server's; no answer at all (refused, reset, timeout, truncated) is the transport's.
      return report.status !== undefined && report.status >= 500 ? 'server_error' : 'transport_error';
  }
}
