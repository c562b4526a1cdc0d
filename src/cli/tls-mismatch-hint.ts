/**
 * A `rediss://` URL (TLS) to a Redis that serves plain TCP gets no TLS answer: the connection times
 * out, which reads as a Redis that is down while it is up and answering `redis://`.
 */

/** The advice to add when a TLS coordinator URL got no answer, else ''. */
export function tlsMismatchHint(message: string): string {
  if (!/\brediss:\/\//.test(message) || !/ETIMEDOUT|no answer in time|ECONNRESET|SSL|TLS/i.test(message)) return '';
  return '; a rediss:// (TLS) URL to a Redis that does not serve TLS gets no answer like this: give redis:// if it serves plain TCP';
}
