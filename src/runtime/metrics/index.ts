/**
 * Metrics (Prometheus, prom-client): the registry and instruments, the run observer, and the two
 * ways out (a `/metrics` endpoint and a node_exporter textfile). Names are documented in README.md.
 */
export { createMetrics, type FileKind, type MetricsOptions, type QuotaFigures, type QuotelakeMetrics, type RowKind } from './quotelake-metrics.js';
export { REQUEST_OUTCOMES, requestOutcome, type AttemptReport, type RequestOutcome } from './request-outcome.js';
export { tokenLabel, type TokenRef } from './token-label.js';
export { observeRun } from './observe-run.js';
export { DEFAULT_METRICS_HOST, serveMetrics, type MetricsServer } from './metrics-server.js';
export { startMetricsTextfile, type MetricsTextfile, type TextfileOptions } from './metrics-textfile.js';
