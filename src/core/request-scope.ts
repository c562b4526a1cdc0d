/**
 * Which stream an HTTP request serves. A run's streams share one service client, so a counter on
 * the client cannot tell them apart; instead a source runs each client call inside a scope, and the
 * client tells the scope of the call that caused it about every request it puts on the wire
 * (retries, bisections and speculative pages included). The scope follows the call through awaits
 * and timers (AsyncLocalStorage), so nothing needs to be threaded through the client's signatures.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  /** One request of `endpoint` was sent on behalf of this scope. */
  sent(endpoint: string): void;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `call` (and everything it starts) inside `scope`. */
export function inRequestScope<T>(scope: RequestScope, call: () => T): T {
  return storage.run(scope, call);
}

/** The scope of the call running now, if a source set one. */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}
