/**
 * What to do about an answer the service refused, by its `ret` or HTTP status: carried by ApiError
 * itself (its `hint`), so a library user gets the advice the command line prints.
 */
import type { ApiError } from './errors.js';

/** Said of a token the service does not know, whether it came alone or in a pool. */
const UNKNOWN_TOKEN =
  'the service does not know this token: check it (QUOTELAKE_TOKEN or --token; a pool: QUOTELAKE_TOKENS or --tokens-file) and the base URL (without one, the built-in emulator knows only its demo tokens)';

export function apiHint(e: Pick<ApiError, 'code' | 'ret' | 'httpStatus' | 'retryable'>): string | undefined {
  // A suspension endpoint answers every error with HTTP 500 (spec 7.2): the text says it was the token.
  if (e.code === 'QL_API_TOKEN_INVALID') return UNKNOWN_TOKEN;
  switch (e.ret) {
    case 401:
      return UNKNOWN_TOKEN;
    case 604:
      return 'the token\'s plan does not cover these products: drop them from codes, or use a plan that covers their market';
    case 600:
      return 'a product code is not known to the service: codes are case-sensitive (see the product list)';
    case 605:
      return 'too many products in one request for this plan: check --plan';
    case 429:
      return 'the service kept answering "rate limit": check that --plan matches the token\'s real plan';
    default:
      return httpHint(e.httpStatus, e.retryable);
  }
}

/** What an answer's HTTP status says to check, when its `ret` said nothing more specific. */
export function httpHint(status: number | undefined, retryable: boolean): string {
  // Retryable 500s were retried already; a non-retryable one is the service refusing this request.
  if (status !== undefined && status >= 500) return retryable ? 'the service failed; try again later' : 'the service refused this request; its answer is quoted above';
  if (status === 404) return 'nothing answers this path at the base URL: check --base-url (or QUOTELAKE_BASE_URL, service.baseUrl), with the path prefix the service has, if any';
  if (status === 401 || status === 403) return `the address refused the request before the service read it: ${UNKNOWN_TOKEN}`;
  if (status !== undefined && status >= 300 && status < 400) {
    return 'the base URL answers with a redirect, which quotelake does not follow (the token would go with it): use the address it redirects to as --base-url';
  }
  return 'the service refused this request; its answer is quoted above: check the base URL, the token and the codes';
}

