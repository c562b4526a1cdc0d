/**
 * The Prometheus registry of one process and every quotelake instrument, behind a small API that
 * the run loop, the CLI, workers and the token pool call. One registry per process (not prom-client's
 * global one), so tests and several runs in one process never share counts by accident.
 *
 * Names and labels are documented in README.md ("Metrics"); change both together.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestOutcome } from './request-outcome.js';
import { tokenLabel, type TokenRef } from './token-label.js';

export type RowKind = 'received' | 'written' | 'merged' | 'rejected';
export type FileKind = 'data' | 'rejected';

/** A token's daily quota as the quota store (or the shared coordinator) reports it. */
export interface QuotaFigures {
  readonly used: number;
  /** +Infinity for a plan without a daily cap. */
  readonly limit: number;
  readonly remaining: number;
  /** The next reset (midnight in the quota's zone). */
  readonly resetAt?: Date | undefined;
}

export interface MetricsOptions {
  /** Node process metrics (CPU, memory, event loop, GC: prom-client's default collectors). Default false. */
  readonly processMetrics?: boolean;
}

export interface QuotelakeMetrics {
  /** The registry behind the instruments, for exposition. */
  readonly registry: Registry;
  /**
   * One HTTP attempt ended (or was refused before the wire: outcome `refused`); `durationMs`, from
   * sending to the parsed answer or the failure, when it was sent.
   */
  request(endpoint: string, outcome: RequestOutcome, durationMs?: number): void;
  /** An attempt got its quota and rate-limit slot after `waitMs` (clock ms). */
  limiterWait(endpoint: string, waitMs: number): void;
  /** Rows of a dataset by kind, as the run summary counts them. */
  rows(dataset: string, kind: RowKind, count: number): void;
  /** Files a commit made visible, and their bytes. */
  filesCommitted(dataset: string, kind: FileKind, files: number, bytes: number): void;
  /** A token's quota now (a token pool calls it per token; the label is a hash, never the token). */
  quota(token: TokenRef, plan: string, figures: QuotaFigures): void;
  /**
   * Reads a token's quota at every scrape and textfile write, until the returned function is
   * called (it keeps the last figures). For a long-running process whose quota moves between runs.
   */
  trackQuota(token: TokenRef, plan: string, read: () => Promise<QuotaFigures>): () => void;
  /** A pipeline run ended with this summary status after `durationMs` (clock ms). */
  runFinished(pipeline: string, status: string, durationMs: number): void;
  /** A queue slice (series × date range) ended with this status after `durationMs` (clock ms). */
  sliceFinished(pipeline: string, status: string, durationMs: number): void;
  /**
   * The text exposition format: the quotelake instruments, and the process metrics when they were
   * asked for, unless `process: false` (a textfile: written now and read later, they would be stale).
   */
  text(options?: { readonly process?: boolean }): Promise<string>;
  readonly contentType: string;
}

/** Limiter waits: from "no wait" to the minute-long holds of a suspension endpoint (L5). */
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Request latency: a loopback emulator (milliseconds) to a slow halt archive or a timeout (30 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Runs and slices: a one-round snapshot (under a second) up to a day-long backfill. */
const DURATION_BUCKETS = [0.5, 1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 14_400, 43_200, 86_400];

export function createMetrics(options: MetricsOptions = {}): QuotelakeMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'quotelake_requests_total',
    help: 'HTTP attempts to the service by endpoint path and outcome (refused: stopped before the wire)',
    labelNames: ['endpoint', 'outcome'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'quotelake_request_duration_seconds',
    help: 'Time from sending an attempt to its parsed answer or failure, by endpoint path and outcome',
    labelNames: ['endpoint', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const limited = new Counter({
    name: 'quotelake_rate_limited_total',
    help: 'Answers saying "rate limit" (ret 429, or a suspension endpoint\'s HTTP 500 rate-limit error) by endpoint; reason window (per-second/minute limit) or daily (quota used up)',
    labelNames: ['endpoint', 'reason'] as const,
    registers,
  });
  const wait = new Histogram({
    name: 'quotelake_rate_limiter_wait_seconds',
    help: 'Time an attempt waited for its daily-quota reservation and rate-limit slot before it was sent',
    labelNames: ['endpoint'] as const,
    buckets: WAIT_BUCKETS,
    registers,
  });
  const rows = new Counter({
    name: 'quotelake_rows_total',
    help: 'Rows by dataset and kind: received from the source = written (new) + merged (replaced a held row) + rejected',
    labelNames: ['dataset', 'kind'] as const,
    registers,
  });
  const files = new Counter({
    name: 'quotelake_files_committed_total',
    help: 'Files made visible by commits, by dataset and kind (data, or rejected records diverted under _rejected/)',
    labelNames: ['dataset', 'kind'] as const,
    registers,
  });
  const bytes = new Counter({
    name: 'quotelake_committed_bytes_total',
    help: 'Bytes of the files made visible by commits, by dataset and kind',
    labelNames: ['dataset', 'kind'] as const,
    registers,
  });

  // Quota gauges: set directly, or refreshed from the tracked readers at each collection.
  // Per token and plan, every reader registered and not yet removed (a worker may run several runs
  // on one token at once); the newest one is read.
  type Tracked = { token: string; plan: string; read: () => Promise<QuotaFigures> };
  const tracked = new Map<string, Set<Tracked>>();
  let refreshing: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    // The four gauges collect together: one read per token per collection, not four.
    refreshing ??= (async () => {
      try {
        await Promise.all(
          [...tracked.values()].map(async (set) => {
            const t = [...set].at(-1);
            if (t === undefined) return;
            try {
              setQuota(t.token, t.plan, await t.read());
            } catch {
              // A quota that cannot be read now keeps its last figures; a scrape must not fail for it.
            }
          }),
        );
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  };
  const quotaGauge = (name: string, help: string) =>
    new Gauge({ name, help, labelNames: ['token', 'plan'] as const, registers, collect: refresh });
  const used = quotaGauge('quotelake_quota_used_requests', 'Requests counted against the token\'s daily quota today (token: first 16 hex digits of its SHA-256)');
  const left = quotaGauge('quotelake_quota_left_requests', 'Requests left in the token\'s daily quota today (+Inf: no daily cap)');
  const limit = quotaGauge('quotelake_quota_limit_requests', 'The token\'s daily request quota (+Inf: no daily cap)');
  const reset = quotaGauge('quotelake_quota_reset_timestamp_seconds', 'When the token\'s daily quota next resets, Unix seconds');
  function setQuota(token: string, plan: string, f: QuotaFigures): void {
    const labels = { token, plan };
    used.set(labels, f.used);
    left.set(labels, f.remaining);
    limit.set(labels, f.limit);
    if (f.resetAt !== undefined) reset.set(labels, f.resetAt.getTime() / 1000);
  }

  const runs = new Histogram({
    name: 'quotelake_run_duration_seconds',
    help: 'Pipeline runs by pipeline and summary status (succeeded, incomplete, quota-exhausted, failed, ...): wall time',
    labelNames: ['pipeline', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const slices = new Histogram({
    name: 'quotelake_slice_duration_seconds',
    help: 'Queue slices (codes x interval x partition) run by a worker, by pipeline and status (done, quota, released, failed): wall time from start to end',
    labelNames: ['pipeline', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });

  // A registry of their own, so a textfile can be written without them (text({ process: false })).
  const processRegistry = options.processMetrics === true ? new Registry() : undefined;
  if (processRegistry) collectDefaultMetrics({ register: processRegistry });
  const everything = processRegistry ? Registry.merge([registry, processRegistry]) : registry;

  return {
    registry: everything,
    contentType: registry.contentType,
    request(endpoint, outcome, durationMs) {
      requests.inc({ endpoint, outcome });
      if (durationMs !== undefined) latency.observe({ endpoint, outcome }, Math.max(0, durationMs) / 1000);
      if (outcome === 'rate_limited') limited.inc({ endpoint, reason: 'window' });
      else if (outcome === 'quota_exhausted') limited.inc({ endpoint, reason: 'daily' });
    },
    limiterWait(endpoint, waitMs) {
      wait.observe({ endpoint }, Math.max(0, waitMs) / 1000);
    },
    rows(dataset, kind, count) {
      rows.inc({ dataset, kind }, count);
    },
    filesCommitted(dataset, kind, count, size) {
      files.inc({ dataset, kind }, count);
      bytes.inc({ dataset, kind }, size);
    },
    quota(token, plan, figures) {
      setQuota(tokenLabel(token), plan, figures);
    },
    trackQuota(token, plan, read) {
      const label = tokenLabel(token);
      const key = `${label}\u0000${plan}`;
      const entry: Tracked = { token: label, plan, read };
      let set = tracked.get(key);
      if (!set) tracked.set(key, (set = new Set()));
      set.add(entry);
      return () => {
        set.delete(entry);
        if (set.size === 0 && tracked.get(key) === set) tracked.delete(key);
      };
    },
    runFinished(pipeline, status, durationMs) {
      runs.observe({ pipeline, status }, Math.max(0, durationMs) / 1000);
    },
    sliceFinished(pipeline, status, durationMs) {
      slices.observe({ pipeline, status }, Math.max(0, durationMs) / 1000);
    },
    text(textOptions = {}) {
      return (textOptions.process === false ? registry : everything).metrics();
    },
  };
}
