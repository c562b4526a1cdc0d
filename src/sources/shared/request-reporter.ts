/**
 * Reports the HTTP requests a source caused to ctx.events, taken from the client's own per-endpoint
 * counts, so retries, bisections and batch splits are counted exactly once each, even when several
 * streams share the client.
 *
 * The client counts per endpoint, not per call, so which stream a request served is inferred: a call
 * that ends while other calls are still running takes one request, the last call running takes the
 * rest. One request per call (the usual case) is then attributed exactly; a retry may land on a
 * sibling stream. Totals per endpoint are always exact.
 */
import type { ServiceClient } from '../../api/index.js';
import type { RunEvents } from '../../core/component.js';

export interface RequestReporter {
  /** A client call for `stream` began (`reported` calls this). */
  started(stream?: string): void;
  /**
   * Reports requests sent since the last report, for `stream` when given. Call after each client
   * call (also on failure).
   */
  flush(stream?: string): void;
  /** Total requests this source sent, per endpoint. */
  readonly totals: Readonly<Record<string, number>>;
}

export function requestReporter(client: ServiceClient, events: RunEvents): RequestReporter {
  const seen: Record<string, number> = { ...client.requestCounts() };
  const totals: Record<string, number> = {};
  // Requests counted by the client but not yet reported, per endpoint.
  const pool: Record<string, number> = {};
  let running = 0;
  const report = (endpoint: string, count: number, stream: string | undefined) => {
    pool[endpoint] = (pool[endpoint] ?? 0) - count;
    for (let i = 0; i < count; i++) events.request(endpoint, stream);
  };
  return {
    totals,
    started() {
      running++;
    },
    flush(stream) {
      if (running > 0) running--;
      const now = client.requestCounts();
      for (const [endpoint, count] of Object.entries(now)) {
        const delta = count - (seen[endpoint] ?? 0);
        if (delta <= 0) continue;
        seen[endpoint] = count;
        totals[endpoint] = (totals[endpoint] ?? 0) + delta;
        pool[endpoint] = (pool[endpoint] ?? 0) + delta;
      }
      if (stream === undefined || running === 0) {
        for (const [endpoint, count] of Object.entries(pool)) if (count > 0) report(endpoint, count, stream);
        return;
      }
      const endpoint = Object.keys(pool).find((e) => (pool[e] ?? 0) > 0);
      if (endpoint !== undefined) report(endpoint, 1, stream);
    },
  };
}

/** Runs one client call and reports its requests whether it succeeds or fails. */
export async function reported<T>(reporter: RequestReporter, call: Promise<T>, stream?: string): Promise<T> {
  reporter.started(stream);
  try {
    return await call;
  } finally {
    reporter.flush(stream);
  }
}
