/**
 * One pipeline run from the command line: connect (or start the built-in emulator), create the
 * client, show progress, run, and sum it up with the exit code a scheduler can act on.
 */
import type { LastWords } from '../runtime/last-words.js';
import { createClient, createTokenPool, planLimits, redactUrl, TokenPool, type ServiceClient } from '../api/index.js';
import type { Coordinator } from '../api/admission.js';
import { anchoredAt, spanAnchor, systemClock, type Clock } from '../core/clock.js';
import type { LogLevel } from '../core/component.js';
import { QuotaExhaustedError } from '../core/errors.js';
import { coverageOfOutput, formatCoverageReport, type SeriesRef } from '../coverage/index.js';
import type { Checkpoint } from '../core/component.js';
import type { Interval } from '../core/records.js';
import { createLogger, type LogFormat } from '../runtime/logger.js';
import { createRunId } from '../runtime/run-id.js';
import { readPosition } from '../sources/kline-history/kline-position.js';
import { newestHeldBars } from '../sources/shared/newest-held.js';
import { heldKeys } from '../lake/held-keys.js';
import { runRange, seriesSinceMs } from './run-coverage-range.js';
import { klineStream } from '../sources/shared/kline-records.js';
import { resolveTimeSpec } from '../sources/shared/time-spec.js';
import { emptyWindow } from '../sources/shared/empty-window.js';
import { createRunEvents, type RowCounts, type RunEventsSnapshot } from '../runtime/run-events.js';
import type { SourceDefinition } from '../core/definition.js';
import { CheckpointStore } from '../runtime/checkpoint-store.js';
import { quotaStateDir } from './lake-location.js';
import { localStorage } from '../lake/storage/local-storage.js';
import { stateLocationFor, type StateLocation } from '../runtime/state-location.js';
import { runPipeline, type RunResult } from '../runtime/run-pipeline.js';
import { describeError, formatError, formatErrorDetails, type DescribedError } from './describe-error.js';
import { EXIT_INCOMPLETE, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT_CLOSED, EXIT_QUOTA, EXIT_REJECTED } from './exit-codes.js';
import type { PipelineJob } from './pipeline-job.js';
import { startProgress, type ProgressMode } from './progress/progress.js';
import { QuotaWatchingClient } from './quota-watch.js';
import type { QuotelakeMetrics } from '../runtime/metrics/index.js';
import { meteredClientOptions, meterRun, type MeteredToken } from './run-metrics.js';
import { registry } from './registry.js';
import { resumptionOf } from '../runtime/keeps-state.js';
import type { RunSummary, SummaryStatus } from './run-summary.js';
import { rateLimitNote } from './rate-limit-note.js';
import { tokenSummaries, type TokenSummary } from './token-summary.js';
import { poolQuotaStopFields, poolQuotaStopHint, poolQuotaStopSaid } from './pool-quota-stop-said.js';
import { pipelineCodes } from './plan-report.js';
import type { PoolQuotaStop } from '../api/index.js';
import type { ServiceConnection } from './service-target.js';
import type { Terminal } from './terminal.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { setSettings } from '../config/set-settings.js';
import { sinkWritesStdout } from './run-settings.js';

/** The hint of an interrupted run that the next run does not go on from. */
const NOT_RESUMED_HINT = {
  'no-state': 'this output keeps no state: the next run delivers the whole window again',
  polling: 'a polling run is not resumed: the next run takes all its rounds anew (the rounds committed are kept)',
} as const;

/** The rest of the quota notice, by whether the next run goes on from this one. */
const QUOTA_NOTICE = {
  resumed: (resetAt: string) => `; completed work is committed. It resets at ${resetAt}: run the same command again then to resume.`,
  'no-state': (resetAt: string) => `. It resets at ${resetAt}: this output keeps no state, so a run then delivers the whole window again.`,
  polling: (resetAt: string) => `; the rounds completed are committed. It resets at ${resetAt}: a polling run is not resumed, so a run then takes all its rounds anew.`,
} as const;

export interface RunJobOptions {
  readonly terminal: Terminal;
  readonly connection: ServiceConnection;
  readonly signal: AbortSignal;
  /** What the run writes if the process is ended at once (its record marked interrupted). */
  readonly lastWords?: LastWords;
  readonly progress: ProgressMode;
  readonly progressIntervalMs?: number | undefined;
  readonly logLevel: LogLevel;
  /** Default pretty. */
  readonly logFormat?: LogFormat;
  readonly logColor?: boolean;
  /** Pretty log lines name the pipeline (several pipelines run in one command). */
  readonly logPipeline?: boolean;
  readonly clock?: Clock;
  /** `--full-refresh`: the source starts from nothing; saved checkpoints are replaced as commits land. */
  readonly fullRefresh?: boolean;
  /** --metrics-port / --metrics-textfile: the command's metrics, fed by this run. */
  readonly metrics?: QuotelakeMetrics | undefined;
  /** Writes the metrics textfile now: a hard stop's last words, once the run is counted. */
  readonly flushMetrics?: (() => Promise<void>) | undefined;
  /** The output's storage when it is not a local folder (an s3:// output; see output-storage.ts). */
  readonly storage?: LakeStorage | undefined;
  /** `--coordinator`: the plan's limits and daily count shared through Redis. */
  readonly coordinator?: Coordinator;
}

export async function runJob(job: PipelineJob, options: RunJobOptions): Promise<RunSummary> {
  const { terminal, connection } = options;
  const given = options.clock ?? systemClock;
  const started = given.now();
  // Spans ("since 7d") count back from the run's start for the source and the report after it alike.
  const clock = anchoredAt(given, started);
  const { settings } = job.resolved;
  const events = createRunEvents();
  const limits = planLimits(connection.plan, connection.plans);
  // Known before the run so the client's lines (requests, retries) carry it as well.
  const runId = createRunId(new Date(started));
  // Log lines go through the progress display (above its bars), redacted of the token.
  let progress: ReturnType<typeof startProgress> | undefined;
  const rootLogger = createLogger({
    level: options.logLevel,
    format: options.logFormat ?? 'pretty',
    color: options.logColor ?? false,
    showPipeline: options.logPipeline ?? false,
    clock,
    redact: [connection.token, ...(connection.pool ?? []).map((t) => t.token)],
    write: (line) => (progress ? progress.log(line) : terminal.stderr.write(terminal.redact(line))),
  });
  // runPipeline adds the same two fields to its own lines (given rootLogger, so none is doubled).
  const logger = rootLogger.child({ runId, pipeline: job.pipeline.name });
  const shared = {
    logger,
    baseUrl: connection.baseUrl,
    ...(connection.plans ? { plans: connection.plans } : {}),
    // Quota files stay on this machine (an S3 output without --state-dir: the XDG state folder).
    stateDir: quotaStateDir(settings.outputDir, settings.stateDir, process.env),
    clock,
    ...(job.pipeline.service?.quotaTimeZone ? { quotaTimeZone: job.pipeline.service.quotaTimeZone } : {}),
    // service.timeouts: also the lease of a slot in the shared limiter.
    timeouts: setSettings(job.pipeline.service?.timeouts),
    retry: setSettings(job.pipeline.service?.retry),
    ...meteredClientOptions(options.metrics),
    ...(options.coordinator ? { coordinator: options.coordinator } : {}),
    // The built-in emulator starts with this process: no earlier run's sends are in its windows.
    ...(connection.embedded ? { rememberSends: false } : {}),
  };
  // Several tokens: streams spread over them (token-pool.ts); one token: the client of I4 as before.
  const inner = connection.pool
    ? createTokenPool({ ...shared, tokens: connection.pool })
    : createClient({ ...shared, token: connection.token, plan: connection.plan });
  const client = new QuotaWatchingClient(inner);
  const meter = meterRun(options.metrics, {
    pipeline: job.pipeline.name,
    dataset: datasetOf(job),
    events,
    tokens: meteredTokens(inner, connection),
  });
  // Ended at once, the run is counted as interrupted, with what it sent and committed so far, and the
  // textfile written with it (all within the hard stop's short wait).
  const withdrawMeterWords =
    options.lastWords?.add(async () => {
      await meter.finish({ status: 'interrupted', durationMs: clock.now() - started });
      await options.flushMetrics?.();
    }) ?? (() => undefined);
  // An output without state (an NDJSON look) or a polling source is not resumed: what a stopped run says differs.
  const resumption = resumptionOf(job.pipeline, registry);
  let result: RunResult | undefined;
  let failure: DescribedError | undefined;
  let failureDetails: string | undefined;
  let quotaError: QuotaExhaustedError | undefined;
  let quotaAfter: Awaited<ReturnType<typeof client.quotaStatus>> | undefined;
  let tokenQuotasAfter: Awaited<ReturnType<TokenPool['tokenQuotas']>> | undefined;
  let tokens: TokenSummary[] | undefined;
  const quotaBefore = await client.quotaStatus().catch(() => undefined);
  // Where each series stood before the run: the coverage afterwards covers what the run changed.
  // (A full refresh starts from nothing, so its coverage is the whole range it fetched.)
  const positionsBefore = !job.pipeline.source.type.startsWith('kline-')
    ? undefined
    : options.fullRefresh === true
      ? new Map<string, Checkpoint>()
      : await new CheckpointStore(runState(job, options.storage), job.pipeline.name).load().catch(() => undefined);
  // What "since 7d" means, as the source resolves it, and the newest bar of each series the lake
  // held before the run (whoever wrote it): where the coverage afterwards starts.
  const spanFrom = spanAnchor(clock);
  const heldBefore = positionsBefore === undefined ? new Map<string, number>() : await newestHeldBefore(job, positionsBefore, options.storage);
  progress = startProgress({
    mode: options.progress,
    terminal,
    events,
    clock,
    label: job.pipeline.name,
    // A plan without a daily cap has no quota to show.
    quota:
      quotaBefore && Number.isFinite(quotaBefore.limit)
        ? { usedAtStart: quotaBefore.used, limit: quotaBefore.limit, resetAtMs: quotaBefore.resetAt.getTime(), uncharged: () => client.requestOutcomes?.().rateLimited ?? 0 }
        : undefined,
    refused: () => client.requestOutcomes?.().rateLimited ?? 0,
    intervalMs: options.progressIntervalMs,
  });
  try {
    result = await runPipeline(job.pipeline, {
      registry,
      outputDir: settings.outputDir,
      stateDir: settings.stateDir,
      stdout: terminal.stdout,
      client,
      signal: options.signal,
      ...(options.lastWords !== undefined ? { lastWords: options.lastWords } : {}),
      logger: rootLogger,
      events,
      clock,
      runId,
      fullRefresh: options.fullRefresh === true,
      ...(options.storage !== undefined ? { storage: options.storage } : {}),
    });
  } catch (e) {
    failure = describeError(e);
    if (failure.exitCode === EXIT_INTERRUPTED && resumption !== 'resumed') failure = { ...failure, hint: NOT_RESUMED_HINT[resumption] };
    // The message is printed below for a person; a log collector (json) gets it as an error line,
    // with the stack and cause chain in `err`. On a terminal, --log-level debug prints them below
    // the failure instead, once.
    if (options.logFormat === 'json') {
      logger.error(failure.message, { event: 'run-error', code: failure.code, ...(failure.hint ? { hint: failure.hint } : {}), err: e });
    } else if (options.logLevel === 'debug') {
      failureDetails = formatErrorDetails(e);
    }
    if (e instanceof QuotaExhaustedError) quotaError = e;
  } finally {
    // A run that ended with everything sent shows every stream done; a stopped one shows where it stopped.
    progress.stop(result?.status === 'succeeded' && !client.exhausted() ? 'completed' : 'stopped');
    // Closed first: requests a failed run left waiting for a slot give their quota back as it
    // closes, so the figures below are what the run was charged, as the quota file keeps them.
    await client.close().catch(() => undefined);
    quotaAfter = await client.quotaStatus().catch(() => undefined);
    tokens = inner instanceof TokenPool ? await tokenSummaries(inner).catch(() => undefined) : undefined;
    tokenQuotasAfter = inner instanceof TokenPool ? await inner.tokenQuotas().catch(() => undefined) : undefined;
  }
  quotaError ??= client.exhausted();
  // A pool stopped by the tokens that alone cover some codes, others still having quota: said so.
  const poolStop: PoolQuotaStop | undefined = quotaError && inner instanceof TokenPool ? await inner.quotaStop(pipelineCodes(job.pipeline.source)).catch(() => undefined) : undefined;

  const snap = events.snapshot();
  const manifest = result?.manifest;
  // One count of rejected records, the one the per-dataset rows show too.
  const rejected = Object.values(snap.rows).reduce((a, r) => a + r.rejected, 0);
  let status: SummaryStatus;
  let exitCode: number;
  if (failure && failure.exitCode !== EXIT_QUOTA) {
    status = failure.exitCode === EXIT_INTERRUPTED ? 'interrupted' : failure.exitCode === EXIT_OUTPUT_CLOSED ? 'output-closed' : 'failed';
    exitCode = failure.exitCode;
  } else if (quotaError) {
    status = 'quota-exhausted';
    exitCode = EXIT_QUOTA;
  } else if (result?.status === 'aborted') {
    // Only a run the signal cut short. One that came after the source's end (during the last commit,
    // the coverage report) stopped nothing: the run and its `run-end` line say succeeded. The
    // command still exits 130 if the signal kept other pipelines from running (actions/run.ts).
    status = 'interrupted';
    exitCode = EXIT_INTERRUPTED;
  } else if (snap.shortfalls > 0) {
    status = 'incomplete';
    exitCode = EXIT_INCOMPLETE;
  } else if (rejected > 0) {
    status = 'rejected-records';
    exitCode = EXIT_REJECTED;
  } else {
    status = 'succeeded';
    exitCode = EXIT_OK;
  }
  // With json logs the run-error line above said it all: stderr stays JSON lines.
  if (failure && failure.exitCode !== EXIT_QUOTA && options.logFormat !== 'json') terminal.err(formatError(failure, terminal.colors));
  if (failureDetails !== undefined) terminal.err(failureDetails);
  if (poolStop) {
    terminal.notice(
      `quotelake: ${job.pipeline.name}: ${poolQuotaStopSaid(poolStop, connection.pool?.length ?? 0)}${QUOTA_NOTICE[resumption](poolStop.resetAt)} ${poolQuotaStopHint(poolStop)}`,
      { event: 'quota-exhausted', pipeline: job.pipeline.name, resetAt: poolStop.resetAt, ...poolQuotaStopFields(poolStop) },
    );
  } else if (quotaError) {
    const resetAt = quotaError.resetAt.toISOString();
    terminal.notice(
      `quotelake: ${job.pipeline.name}: the daily request quota is used up${QUOTA_NOTICE[resumption](resetAt)}`,
      { event: 'quota-exhausted', pipeline: job.pipeline.name, resetAt },
    );
  }

  const coverage = result && positionsBefore ? await klineCoverage(job, positionsBefore, heldBefore, spanFrom, logger, options.storage) : undefined;
  // What was committed and sent, from the run's events and the client, which outlive a failure:
  // the run manifest exists only for a run that got to its end.
  const files = manifest?.filesCommitted ?? snap.files;
  const finished = clock.now();
  withdrawMeterWords();
  // Not awaited: a quota read of its own lands before the textfile's final write, which waits for the run.
  void meter.finish({ status, durationMs: finished - started, quota: quotaAfter, tokenQuotas: tokenQuotasAfter });
  const requests = client.requestCounts();
  const outcomes = client.requestOutcomes?.();
  const requestsTotal = Object.values(requests).reduce((a, b) => a + b, 0);
  const rows = rowsOf(snap.rows, job);
  const notes = [...snap.notes];
  if (!failure && !quotaError && status !== 'interrupted') {
    const empty = emptyWorkNote(job, requestsTotal, rows, positionsBefore, started);
    if (empty !== undefined) notes.push(empty);
  }
  const refused = rateLimitNote(inner.plan, outcomes, options.coordinator?.target);
  if (refused !== undefined) notes.push(refused);
  const onReject = job.pipeline.options.onReject;
  return {
    pipeline: job.pipeline.name,
    file: job.ref.display,
    runId: result?.runId,
    status,
    exitCode,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date(finished).toISOString(),
    durationMs: finished - started,
    service: { embedded: connection.embedded, plan: inner.plan, baseUrl: redactUrl(connection.baseUrl) },
    output: { dir: settings.outputDir, stateDir: settings.stateDir, format: job.pipeline.sink.type, ...(sinkWritesStdout(job.pipeline) ? { toStdout: true } : {}) },
    ...(resumption === 'resumed' ? {} : { resumable: false, notResumedBecause: resumption }),
    requests,
    requestsTotal,
    ...(outcomes ? { requestOutcomes: outcomes } : {}),
    rows,
    files: { count: files.length, bytes: files.reduce((a, f) => a + f.bytes, 0), paths: files.map((f) => f.path) },
    rejected,
    ...(rejected > 0 ? { rejectedTo: onReject === 'divert' ? `${settings.outputDir.replace(/\/+$/, '')}/_rejected/` : 'dropped' } : {}),
    quota: {
      used: quotaAfter?.used,
      limit: quotaAfter?.limit ?? limits.perDay,
      left: quotaAfter?.remaining,
      ...(quotaAfter !== undefined && quotaAfter.unknown > 0 ? { unknown: quotaAfter.unknown } : {}),
      resetAt: quotaError ? quotaError.resetAt.toISOString() : quotaAfter?.resetAt.toISOString(),
    },
    ...(tokens ? { tokens } : {}),
    ...(poolStop ? { quotaStop: poolStop } : {}),
    notes,
    ...(coverage ? { coverage } : {}),
    manifest: result?.manifestPath,
    ...(failure ? { error: { code: failure.code, message: terminal.redact(failure.message), hint: failure.hint } } : {}),
  };
}

/** The row counts per dataset, the pipeline's own dataset always listed (a run that received nothing shows zeros). */
/** Where the run's checkpoints live: `--state-dir`, `<output>/.state`, or the S3 lake's `_quotelake/state/` (I5). */
function runState(job: PipelineJob, storage: LakeStorage | undefined): StateLocation {
  const { outputDir, stateDir } = job.resolved.settings;
  return stateLocationFor(storage ?? localStorage(outputDir), stateDir);
}

/** The tokens whose quota the metrics follow: each of a pool's, or the one token. */
function meteredTokens(inner: ServiceClient, connection: ServiceConnection): MeteredToken[] {
  if (inner instanceof TokenPool && connection.pool) {
    const pool = inner;
    return connection.pool.map((t, i) => ({ token: t.token, plan: t.plan, quotaStatus: async () => (await pool.tokenQuotas())[i]! }));
  }
  return [{ token: connection.token, plan: connection.plan, quotaStatus: () => inner.quotaStatus() }];
}

function rowsOf(rows: RunEventsSnapshot['rows'], job: PipelineJob): Record<string, RowCounts> {
  const out: Record<string, RowCounts> = {};
  const dataset = datasetOf(job);
  if (dataset !== undefined) out[dataset] = { received: 0, written: 0, merged: 0, rejected: 0 };
  for (const [name, counts] of Object.entries(rows)) out[name] = { ...counts };
  return out;
}

function datasetOf(job: PipelineJob): string | undefined {
  const { type: _type, ...config } = job.pipeline.source;
  const def = registry.find((d) => d.kind === 'source' && d.type === job.pipeline.source.type) as SourceDefinition | undefined;
  try {
    return def?.dataset(config);
  } catch {
    return undefined;
  }
}

/**
 * A run that sent nothing and received nothing says why, so "0 requests, exit 0" is never silent:
 * no codes, a window that has not begun (since in the future) or is empty (until not after since),
 * or every series already up to date with its checkpoint. The exit code stays 0: nothing failed.
 */
export function emptyWorkNote(
  job: Pick<PipelineJob, 'pipeline'>,
  requestsTotal: number,
  rows: Readonly<Record<string, RowCounts>>,
  positionsBefore: ReadonlyMap<string, Checkpoint> | undefined,
  nowMs: number,
): string | undefined {
  const received = Object.values(rows).reduce((a, r) => a + r.received, 0);
  if (requestsTotal > 0 || received > 0) return undefined;
  const source = job.pipeline.source as { codes?: unknown; since?: unknown; until?: unknown };
  if (Array.isArray(source.codes) && source.codes.length === 0) return 'nothing to do: the pipeline lists no codes';
  const window = emptyWindow(source, nowMs);
  if (window !== undefined) return `nothing to do${window.notYet ? ' yet' : ''}: ${window.reason}; no request was sent`;
  if (positionsBefore !== undefined && positionsBefore.size > 0) {
    return 'nothing new since the last checkpoint: every series is up to date; no request was sent';
  }
  return 'nothing to do: no request was sent and no row received';
}

/**
 * The coverage of the kline dataset after a K-line run: bars held per series and gaps classified as
 * market closed, halted or unexplained, over the range the run touched (from its checkpoints before
 * and after), never the whole history: a minute updater on a year-old lake reads a day's files.
 */
async function klineCoverage(
  job: PipelineJob,
  before: ReadonlyMap<string, Checkpoint>,
  heldBefore: ReadonlyMap<string, number>,
  spanFromMs: number,
  logger: { warn(m: string, f?: Record<string, unknown>): void },
  lake?: LakeStorage,
) {
  const { outputDir, stateDir } = job.resolved.settings;
  const format = job.pipeline.sink.type;
  if (format !== 'parquet' && format !== 'arrow') return undefined;
  try {
    const after = await new CheckpointStore(runState(job, lake), job.pipeline.name).load();
    const historyBegins = historyBeginnings(after);
    const until = (job.pipeline.source as { until?: string }).until;
    const untilMs = until !== undefined ? resolveTimeSpec(until, spanFromMs) : undefined;
    // The pipeline's own series only (the output folder may hold other pipelines' series too),
    // each from the oldest bar this run could have written; a series the run left empty is skipped.
    const source = job.pipeline.source as { type: string; since?: string };
    const askedMs = source.type === 'kline-history' && source.since !== undefined ? resolveTimeSpec(source.since, spanFromMs) : undefined;
    const series = pipelineSeries(job).flatMap((s) => {
      const stream = klineStream(s.code, s.interval as Interval);
      const range = runRange(readPosition(before.get(stream)), readPosition(after.get(stream)), seriesSinceMs(s.code, s.interval, askedMs), heldBefore.get(stream));
      return range === undefined ? [] : [{ ...s, ...range, ...(untilMs !== undefined ? { to: untilMs } : {}) }];
    });
    if (series.length === 0) return undefined;
    const report = await coverageOfOutput(lake ?? outputDir, { format, historyBegins, series });
    if (report.series.length === 0) return undefined;
    return {
      totals: report.totals,
      haltsUsed: report.haltsUsed,
      series: report.series.map((s) => ({
        code: s.code,
        interval: s.interval,
        bars: s.bars,
        first: new Date(s.first).toISOString(),
        last: new Date(s.last).toISOString(),
        gaps: s.counts,
        ...(s.historyBegins !== undefined ? { historyBegins: new Date(s.historyBegins).toISOString() } : {}),
        ...(s.range?.from !== undefined ? { rangeFrom: new Date(s.range.from).toISOString() } : {}),
      })),
      text: formatCoverageReport(report, { maxGapsPerSeries: 3, rangeLabel: "this run's range" }),
    };
  } catch (e) {
    // The report is a help, not part of the run: a failure to compute it must not change the exit code.
    logger.warn('could not compute the coverage report', { error: (e as Error).message });
    return undefined;
  }
}

/** The newest bar held per series that this pipeline has no checkpoint of (none when it has one of each: nothing read). */
async function newestHeldBefore(job: PipelineJob, positions: ReadonlyMap<string, Checkpoint>, lake: LakeStorage | undefined): Promise<ReadonlyMap<string, number>> {
  const format = job.pipeline.sink.type;
  if (format !== 'parquet' && format !== 'arrow') return new Map();
  if (pipelineSeries(job).every((s) => positions.has(klineStream(s.code, s.interval as Interval)))) return new Map();
  return newestHeldBars(await heldKeys(lake ?? localStorage(job.resolved.settings.outputDir), 'kline').catch(() => []));
}

/** The (code, interval) series a K-line pipeline fetches: its codes × intervals, after --codes overrides. */
export function pipelineSeries(job: Pick<PipelineJob, 'pipeline'>): SeriesRef[] {
  const source = job.pipeline.source as { codes?: unknown; intervals?: unknown };
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return list(source.codes).flatMap((code) => list(source.intervals).map((interval) => ({ code, interval })));
}

/** Series whose walk found where the service's history begins (`begins` of a K-line checkpoint), by `code interval`. */
function historyBeginnings(checkpoints: ReadonlyMap<string, Checkpoint>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [stream, checkpoint] of checkpoints) {
    const [dataset, code, interval] = stream.split('/');
    const begins = checkpoint.position.begins;
    if (dataset === 'kline' && code && interval && typeof begins === 'number') out.set(`${code} ${interval}`, begins * 1000);
  }
  return out;
}
