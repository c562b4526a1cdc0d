/**
 * Reports the HTTP requests a source causes to ctx.events, each on the stream it served.
 *
 * Streams share one client, so the attribution comes from the call, not from the client's counter:
 * each client call gets its stream's signal, which carries a request scope (core/request-scope.ts),
 * and the client tells that scope about every request it sends, retries, bisections and pages asked
 * for ahead included. Requests the client counted outside any scope (a client that does not know
 * scopes) are still reported, without a stream, when a call ends, so the totals per endpoint stay
 * exact. A client that counts those apart (unscopedRequestCounts) is reconciled against them
 * alone, so a client shared by concurrent runs (a worker's slices) gives each run its own.
 *
 * The reporter also keeps the stream's plan honest: `replan` sets planned = sent + what is still
 * to come (a short page makes a walk longer than planned), a sent attempt that goes again (a retry,
 * a 429) adds one, `finish` sets planned = sent and calls the stream done.
 */
import type { ServiceClient } from '../../api/index.js';
import type { RunEvents } from '../../core/component.js';
import { scopedSignal } from '../../core/request-scope.js';

export interface RequestReporter {
  /**
   * Runs one client call for `stream` (undefined: a call that serves several streams); the call
   * must pass the signal it is given to the client.
   */
  call<T>(stream: string | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Requests sent so far for `stream` by calls of this reporter. */
  sent(stream: string): number;
  /** The planner's count for `stream` at the start of the run. */
  plan(stream: string, requests: number): void;
  /**
   * `remaining` more requests are expected for `stream` after those already sent: the plan grows
   * when the service gives less per request than planned (never below the start's plan until
   * `finish`, which knows).
   */
  replan(stream: string, remaining: number): void;
  /** `stream` sends nothing more in this run and has handed over its last batch: its plan is what it sent, and it is done. */
  finish(stream: string): void;
  /** Total requests this source sent, per endpoint. */
  readonly totals: Readonly<Record<string, number>>;
}

/** `signal`: the run's; each stream's calls get a signal derived from it. */
export function requestReporter(client: ServiceClient, events: RunEvents, signal: AbortSignal): RequestReporter {
  // A client that counts apart what no scope was told of: reconciled against that alone, so other
  // runs on the same client (a worker's concurrent slices) never count as this one's.
  const unscopedAtStart = client.unscopedRequestCounts?.();
  const outside = unscopedAtStart !== undefined ? () => client.unscopedRequestCounts?.() ?? {} : () => client.requestCounts();
  const baseline: Record<string, number> = { ...(unscopedAtStart ?? client.requestCounts()) };
  const totals: Record<string, number> = {};
  const reconciled: Record<string, number> = {};
  // What of `outside()` this reporter has accounted for: what it reconciled, or (counted all
  // together) everything it reported.
  const accounted = unscopedAtStart !== undefined ? reconciled : totals;
  const byStream = new Map<string, number>();
  const plans = new Map<string, number>();
  /** Requests sent again per stream: each is one more than the plan counted. */
  const resent = new Map<string, number>();
  /** The plan last told to events, per stream. */
  const told = new Map<string, number>();
  const tell = (stream: string, requests: number) => {
    told.set(stream, requests);
    events.planned?.(stream, requests);
  };
  const signals = new Map<string, AbortSignal>();
  const signalOf = (stream: string | undefined): AbortSignal => {
    if (stream === undefined) return signal;
    let s = signals.get(stream);
    if (!s) signals.set(stream, (s = scopedSignal(signal, { sent: (endpoint) => count(endpoint, stream), again: () => sendsAgain(stream) })));
    return s;
  };
  const sendsAgain = (stream: string) => {
    resent.set(stream, (resent.get(stream) ?? 0) + 1);
    // Only a stream with a plan has one to grow (finish settles it at what was sent).
    const planned = told.get(stream);
    if (planned !== undefined) tell(stream, Math.max(planned, reporter.sent(stream)) + 1);
  };
  const count = (endpoint: string, stream: string | undefined) => {
    totals[endpoint] = (totals[endpoint] ?? 0) + 1;
    if (stream !== undefined) byStream.set(stream, (byStream.get(stream) ?? 0) + 1);
    events.request(endpoint, stream);
  };
  // What the client counted that no scope reported: sent from outside a scope. Without a count
  // apart, everything the client sent less what the scopes reported.
  const reconcile = () => {
    for (const [endpoint, n] of Object.entries(outside())) {
      const unreported = n - (baseline[endpoint] ?? 0) - (accounted[endpoint] ?? 0);
      for (let i = 0; i < unreported; i++) {
        reconciled[endpoint] = (reconciled[endpoint] ?? 0) + 1;
        count(endpoint, undefined);
      }
    }
  };
  const reporter: RequestReporter = {
    totals,
    async call(stream, call) {
      try {
        return await call(signalOf(stream));
      } finally {
        reconcile();
      }
    },
    sent: (stream) => byStream.get(stream) ?? 0,
    plan(stream, requests) {
      plans.set(stream, requests);
      tell(stream, requests);
    },
    replan(stream, remaining) {
      tell(stream, Math.max((plans.get(stream) ?? 0) + (resent.get(stream) ?? 0), reporter.sent(stream) + Math.max(0, remaining)));
    },
    finish(stream) {
      tell(stream, reporter.sent(stream));
      events.streamDone?.(stream);
    },
  };
  return reporter;
}

/** Runs one client call for `stream` and reports its requests whether it succeeds or fails. */
export function reported<T>(reporter: RequestReporter, call: (signal: AbortSignal) => Promise<T>, stream?: string): Promise<T> {
  return reporter.call(stream, call);
}
