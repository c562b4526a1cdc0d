/**
 * Which stream an HTTP request serves. A run's streams share one service client, so a counter on
 * the client cannot tell them apart. Instead a source hands each client call a signal that carries
 * the stream's scope (derived from the run's signal: it aborts with it), and the client tells the
 * scope of the signal it was given about every request it puts on the wire (retries, bisections and
 * pages asked for ahead included). The signal already goes everywhere a call goes, so nothing else
 * is threaded through the client (and no async context tracking is needed, which would slow every
 * promise of the process).
 */
import { setMaxListeners } from 'node:events';

export interface RequestScope {
  /** One request of `endpoint` was sent on behalf of this scope. */
  sent(endpoint: string): void;
  /**
   * An attempt of `endpoint` failed and the request will be sent again (a retry, or a 429's
   * requeue): one request more than planned.
   */
  again?(endpoint: string): void;
}

const scopes = new WeakMap<AbortSignal, RequestScope>();

/** A signal that aborts when `signal` does and carries `scope` to the client. */
export function scopedSignal(signal: AbortSignal, scope: RequestScope): AbortSignal {
  const derived = AbortSignal.any([signal]);
  // Every request of the stream in flight listens to it (pages asked for ahead, each with its
  // limiter wait, socket and retry back-off): bounded by the pages ahead, not growing over time,
  // so Node's warning at 11 listeners (seen under retries) would only be noise on the terminal.
  setMaxListeners(0, derived);
  scopes.set(derived, scope);
  return derived;
}

/** The scope a call's signal carries, if a source gave it one. */
export function requestScopeOf(signal: AbortSignal | undefined): RequestScope | undefined {
  return signal === undefined ? undefined : scopes.get(signal);
}
