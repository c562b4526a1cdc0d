/**
 * What one pipeline run tells the metrics: the client's attempts and limiter waits (as client
 * options), the run's rows and files (from its events), the token's quota (read at each collection
 * while the run lasts, then its final figures) and the run's duration by status.
 */
import type { ClientOptions, QuotaStatus } from '../api/index.js';
// Not the metrics barrel: it loads prom-client, which a run without metrics never needs.
import { observeRun } from '../runtime/metrics/observe-run.js';
import type { QuotelakeMetrics } from '../runtime/metrics/quotelake-metrics.js';
import { requestOutcome } from '../runtime/metrics/request-outcome.js';
import type { RunEventsRecorder } from '../runtime/run-events.js';

/** The client options that report each attempt's outcome and each admission's wait. */
export function meteredClientOptions(metrics: QuotelakeMetrics | undefined): Pick<ClientOptions, 'onRequest' | 'onAdmission'> {
  if (!metrics) return {};
  return {
    onRequest: (info) => metrics.request(info.endpoint, requestOutcome(info), info.durationMs),
    onAdmission: (info) => {
      if (info.admitted) metrics.limiterWait(info.endpoint, info.waitMs);
      else metrics.request(info.endpoint, 'refused');
    },
  };
}

export interface RunMeter {
  /**
   * The run ended: final quota figures, the run's duration under its summary status; stops watching.
   * Settles once quota figures it had to read itself are set (a hard stop writes the textfile then).
   */
  finish(end: { status: string; durationMs: number; quota?: QuotaStatus | undefined; tokenQuotas?: readonly QuotaStatus[] | undefined }): Promise<void>;
}

/** One token whose quota the metrics follow (a pool has several), read at each collection. */
export interface MeteredToken {
  readonly token: string;
  readonly plan: string;
  readonly quotaStatus: () => Promise<QuotaStatus>;
}

export function meterRun(
  metrics: QuotelakeMetrics | undefined,
  run: {
    pipeline: string;
    dataset: string | undefined;
    events: Pick<RunEventsRecorder, 'on'>;
    tokens: readonly MeteredToken[];
  },
): RunMeter {
  if (!metrics) return { finish: async () => undefined };
  const offEvents = observeRun(metrics, run.events, run.dataset ?? 'unknown');
  // Hashed inside; the token is not kept by the metrics.
  const untrack = run.tokens.map((t) => metrics.trackQuota({ token: t.token }, t.plan, t.quotaStatus));
  // Once: a hard stop's last words may finish a run whose own end then never comes, or comes after.
  let finished = false;
  return {
    async finish(end) {
      if (finished) return;
      finished = true;
      offEvents();
      for (const u of untrack) u();
      // One token: the run's last reading. A pool: each token's own, read once its client closed
      // (set now, so the final textfile write and the last scrape hold them).
      const only = run.tokens.length === 1 ? run.tokens[0] : undefined;
      if (only && end.quota) metrics.quota({ token: only.token }, only.plan, end.quota);
      else if (end.tokenQuotas && end.tokenQuotas.length === run.tokens.length) run.tokens.forEach((t, i) => metrics.quota({ token: t.token }, t.plan, end.tokenQuotas![i]!));
      metrics.runFinished(run.pipeline, end.status, end.durationMs);
      if (!(only && end.quota) && !(end.tokenQuotas && end.tokenQuotas.length === run.tokens.length)) {
        await Promise.all(run.tokens.map((t) => t.quotaStatus().then((q) => metrics.quota({ token: t.token }, t.plan, q), () => undefined)));
      }
    },
  };
}
