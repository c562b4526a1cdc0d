/**
 * What a service base URL may hold, wherever it is given (flag, QUOTELAKE_BASE_URL, service.baseUrl):
 * http or https, an origin and a path. The client sends only those, so a user name, password, query
 * or fragment would go unsent, yet be printed and stored with the run.
 */
import { redactUrl } from './redact.js';

export interface BaseUrlProblem {
  /** What is wrong, without the URL: `has a query or fragment, which quotelake never sends`. */
  readonly reason: string;
  /** The sentence with the URL, redacted: `base URL "…" has a query or fragment, …`. */
  readonly message: string;
  readonly hint?: string;
}

function problem(text: string, reason: string, hint?: string): BaseUrlProblem {
  return { reason, message: `base URL "${redactUrl(text)}" ${reason}`, ...(hint !== undefined ? { hint } : {}) };
}

/** Why `text` is no base URL, or undefined. */
export function baseUrlProblem(text: string): BaseUrlProblem | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return problem(text, 'is not a URL', 'give it as http://host:port or https://host');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return problem(text, 'must be http or https', 'give it as http://host:port or https://host');
  if (url.username !== '' || url.password !== '') {
    return problem(text, 'holds a user name or password, which quotelake never sends', 'drop "user:password@" from it: the service takes the token (QUOTELAKE_TOKEN or --token)');
  }
  if (url.search !== '' || url.hash !== '') {
    return problem(text, 'has a query or fragment, which quotelake never sends', 'give only http(s)://host[:port][/path]; the token goes in QUOTELAKE_TOKEN or --token');
  }
  return undefined;
}
