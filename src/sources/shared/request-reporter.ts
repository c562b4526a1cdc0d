/**
 * Reports the HTTP requests a source caused to ctx.events, taken from the client's own per-endpoint
 * counts, so retries, bisections and batch splits are counted exactly once each, even when several
 * streams share the client.
 */
import type { ServiceClient } from '../../api/index.js';
import type { RunEvents } from '../../core/component.js';

export interface RequestReporter {
  /** Reports every request sent since the last report. Call after each client call (also on failure). */
  flush(): void;
  /** Total requests this source sent, per endpoint. */
  readonly totals: Readonly<Record<string, number>>;
}

export function requestReporter(client: ServiceClient, events: RunEvents): RequestReporter {
  const seen: Record<string, number> = { ...client.requestCounts() };
  const totals: Record<string, number> = {};
  return {
    totals,
    flush() {
      const now = client.requestCounts();
      for (const [endpoint, count] of Object.entries(now)) {
        const delta = count - (seen[endpoint] ?? 0);
        if (delta <= 0) continue;
        seen[endpoint] = count;
        totals[endpoint] = (totals[endpoint] ?? 0) + delta;
        for (let i = 0; i < delta; i++) events.request(endpoint);
      }
    },
  };
}

/** Runs one client call and reports its requests whether it succeeds or fails. */
export async function reported<T>(reporter: RequestReporter, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } finally {
    reporter.flush();
  }
}
