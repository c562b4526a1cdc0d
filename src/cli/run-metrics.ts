/**
 * What one pipeline run tells the metrics: the client's attempts and limiter waits (as client
 * options), the run's rows and files (from its events), the token's quota (read at each collection
 * while the run lasts, then its final figures) and the run's duration by status.
 */
import type { ClientOptions, QuotaStatus } from '../api/index.js';
import { observeRun, requestOutcome, type QuotelakeMetrics } from '../runtime/metrics/index.js';
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
  /** The run ended: final quota figures, the run's duration under its summary status; stops watching. */
  finish(end: { status: string; durationMs: number; quota?: QuotaStatus | undefined }): void;
}

export function meterRun(
  metrics: QuotelakeMetrics | undefined,
  run: {
    pipeline: string;
    dataset: string | undefined;
    events: Pick<RunEventsRecorder, 'on'>;
    token: string;
    plan: string;
    quotaStatus: () => Promise<QuotaStatus>;
  },
): RunMeter {
  if (!metrics) return { finish: () => undefined };
  const offEvents = observeRun(metrics, run.events, run.dataset ?? 'unknown');
  // Hashed inside; the token is not kept by the metrics.
  const untrack = metrics.trackQuota({ token: run.token }, run.plan, run.quotaStatus);
  return {
    finish(end) {
      offEvents();
      untrack();
      if (end.quota) metrics.quota({ token: run.token }, run.plan, end.quota);
      metrics.runFinished(run.pipeline, end.status, end.durationMs);
    },
  };
}
