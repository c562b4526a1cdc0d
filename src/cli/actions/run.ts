/** `quotelake run`: loaded only when the command runs, so --help stays fast. */
import { packageVersion } from '../../lake/package-version.js';
import { commandClock } from '../clock-option.js';
import { createConnections } from '../connections.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT_CLOSED, EXIT_QUOTA, EXIT_USAGE, worstExitCode } from '../exit-codes.js';
import { handleInterrupts, runStopWords, stopGraceMs } from '../interrupts.js';
import { registry } from '../registry.js';
import { resumptionOf } from '../../runtime/keeps-state.js';
import { loadJobs } from '../pipeline-job.js';
import { printPlans } from '../plan-report.js';
import { chooseProgressMode, DEFAULT_PROGRESS_INTERVAL_MS } from '../progress/progress.js';
import { runJob } from '../run-job.js';
import { sinkWritesStdout } from '../run-settings.js';
import { renderSummary, type RunSummary } from '../run-summary.js';
import { chooseTarget } from '../service-target.js';
import { logFormatOf, type ClockArgs, type CoordinatorArgs, type DataArgs, type OutputArgs, type ReportArgs, type ServiceArgs } from '../shared-options.js';
import { connectRedisCoordinator } from '../../api/connect-redis-coordinator.js';
import { coordinatorUrlOf } from '../coordinator.js';
import { coordinatorPatience, type CoordinatorPatienceArgs } from '../coordinator-patience.js';
import { UsageError } from '../usage-error.js';
import { redactUrl } from '../../core/redact.js';
import { readSharedDayCounts } from '../shared-day-counts.js';
import { describeError, sayFailure } from '../describe-error.js';
import { SIGNAL_NOTICE, useJsonNotices } from '../json-notices.js';
import type { Coordinator } from '../../api/admission.js';
import { emitJson, terminalFor, type Terminal } from '../terminal.js';
import { sendJsonDocToStderr } from '../json-doc-stream.js';
import { confirmFullRefresh } from '../full-refresh.js';
import { sayNotConfirmed } from '../not-confirmed.js';
import { metricsSettings, type MetricsArgs } from '../metrics-options.js';
import { sayMetricsUnusedInDryRun } from '../dry-run-metrics.js';
import type { MetricsExposure } from '../metrics-exposure.js';
import { checkJobTokenPool, resolveTokenPool, type TokenPoolArgs } from '../token-pool-settings.js';
import { openOutput } from '../output-storage.js';

export interface RunCommandArgs extends ServiceArgs, OutputArgs, DataArgs, ReportArgs, ClockArgs, MetricsArgs, TokenPoolArgs, CoordinatorArgs, CoordinatorPatienceArgs {
  pipeline: string[];
  state?: boolean | undefined;
  table?: 'delta' | 'hive' | undefined;
  'dry-run': boolean;
  'full-refresh'?: boolean | undefined;
  yes?: boolean | undefined;
  'stop-timeout'?: number | undefined;
}

function progressInterval(env: NodeJS.ProcessEnv): number {
  const v = Number(env.QUOTELAKE_PROGRESS_INTERVAL_MS);
  return Number.isFinite(v) && v >= 10 ? v : DEFAULT_PROGRESS_INTERVAL_MS;
}

export async function runHandler(args: RunCommandArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Whether stdout carries NDJSON data, as far as known when a failure comes: `--format ndjson`,
  // then the pipeline files as they load, then the loaded jobs.
  const stdoutData = { known: args.format === 'ndjson' };
  try {
    return await runPipelines(args, env, stdoutData);
  } catch (error) {
    if (stdoutData.known) sendJsonDocToStderr(error);
    throw error;
  }
}

async function runPipelines(args: RunCommandArgs, env: NodeJS.ProcessEnv, stdoutData: { known: boolean }): Promise<number> {
  const terminal = terminalFor(args, env);
  const clock = commandClock(args.clock, env);
  const logFormat = logFormatOf(args, env);
  useJsonNotices(terminal, logFormat, clock);
  const graceMs = stopGraceMs(args['stop-timeout'], env);
  const patience = coordinatorPatience(args);
  const metricsWanted = metricsSettings(args);
  const jobs = await loadJobs(args.pipeline, args, env, (pipeline) => {
    if (sinkWritesStdout(pipeline)) stdoutData.known = true;
  });
  // Usage problems (base URL without token, ...) of every pipeline before the first request.
  // Several tokens (QUOTELAKE_TOKENS, --tokens-file): each pipeline spreads its streams over them.
  const pool = await resolveTokenPool(args, env, { cwd: process.cwd(), pipelineFiles: jobs.map((j) => j.ref.path) });
  for (const t of pool?.tokens ?? []) terminal.addSecret(t.token);
  if (pool) for (const j of jobs) checkJobTokenPool(pool, j);
  const targets = jobs.map((j) => chooseTarget(j.resolved, j.plans, pool?.tokens));
  for (const t of targets) terminal.addSecret(t.token);
  const dataOnStdout = jobs.some((j) => sinkWritesStdout(j.pipeline));
  stdoutData.known = dataOnStdout;
  const coordinatorUrl = coordinatorUrlOf(args, env);
  // Without a coordinator nothing waits for Redis: the patience would be silently ignored.
  if (args['coordinator-patience'] !== undefined && coordinatorUrl === undefined) {
    throw new UsageError('--coordinator-patience goes with --coordinator (or QUOTELAKE_REDIS_URL): without a coordinator there is no Redis to wait for', 'give --coordinator redis://HOST:6379/DB, or leave --coordinator-patience out');
  }

  const fullRefresh = args['full-refresh'] === true;
  if (args['dry-run']) {
    if (metricsWanted) await sayMetricsUnusedInDryRun(terminal, metricsWanted);
    // With a coordinator the day is counted in Redis, not in the quota file: plan on that count.
    const sharedDays = coordinatorUrl !== undefined ? await readSharedDayCounts(coordinatorUrl) : undefined;
    return printPlans(terminal, jobs, clock, { fullRefresh, pool: pool?.tokens, s3Endpoint: args['s3-endpoint'], ...(sharedDays ? { sharedDays } : {}) }, args.json);
  }

  if (fullRefresh && !(await confirmFullRefresh(jobs, args, terminal))) {
    return sayNotConfirmed(terminal, { command: 'run', undone: 'run', json: args.json === true, nothing: { runs: [] }, toStderr: dataOnStdout });
  }

  // A coordinator that is not there fails before anything is sent or written (fail closed).
  let coordinator: Coordinator | undefined;
  // A stop ends a wait for Redis at once: the grace is for committing, not for waiting.
  const stopWaiting = new AbortController();
  if (coordinatorUrl !== undefined) {
    try {
      // A Redis restarted mid-run (systemd, a failover) is waited for, at warn, rather than failing a long run.
      coordinator = await connectRedisCoordinator(coordinatorUrl, {
        patienceMs: patience.ms,
        onWait: ({ message, event, waitMs }) => terminal.notice(`quotelake: ${message}`, { level: 'warn', event, waitMs, coordinator: redactUrl(coordinatorUrl) }),
        stopWaiting: stopWaiting.signal,
      });
    } catch (error) {
      const described = describeError(error);
      sayFailure(terminal, described, error);
      if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'run', exitCode: described.exitCode, error: { code: described.code, message: described.message, hint: described.hint } }, dataOnStdout);
      return described.exitCode;
    }
  }

  // A hard stop says what the next run does, which only a pipeline that keeps its checkpoints and does not poll resumes.
  const words = runStopWords(jobs.map((j) => resumptionOf(j.pipeline, registry)));
  const interrupts = handleInterrupts((line) => terminal.notice(line, SIGNAL_NOTICE), { graceMs, words });
  interrupts.signal.addEventListener('abort', () => stopWaiting.abort(), { once: true });
  const connections = createConnections((line, fields) => terminal.notice(line, fields), clock);
  const summaries: RunSummary[] = [];
  let exposure: MetricsExposure | undefined;
  let metricsFailure: { error: unknown } | undefined;
  let metricsError: ReturnType<typeof describeError> | undefined;
  try {
    // Loaded only when asked for: prom-client costs ~0.04 CPU-s to load.
    if (metricsWanted) exposure = await (await import('../metrics-exposure.js')).startMetricsExposure(metricsWanted, (line, notice, asText) => terminal.notice(line, notice, asText));
    // Ended at once (a second signal, a stop that hung) between runs or after the last, the textfile
    // still gets the counts so far; during a run, the run's own last words write it once it is counted.
    if (exposure) interrupts.lastWords.add(exposure.flush);
    for (const [i, job] of jobs.entries()) {
      if (interrupts.signal.aborted) break;
      const connection = await connections.get(targets[i]!, job.pipeline.service?.quotaTimeZone);
      const output = await openOutput(job.resolved.settings.outputDir, args['s3-endpoint'], env);
      const summary = await runJob(job, {
        storage: output.storage,
        terminal,
        connection,
        signal: interrupts.signal,
        lastWords: interrupts.lastWords,
        progress: chooseProgressMode({ quiet: args.quiet, json: args.json, isTTY: terminal.stderrIsTTY }),
        progressIntervalMs: progressInterval(env),
        logLevel: args['log-level'],
        logFormat,
        // Colour only for a person at a terminal who did not turn it off (--no-color, NO_COLOR).
        logColor: terminal.stderrIsTTY && terminal.colors.isColorSupported,
        // `run a.yaml b.yaml`: pretty lines are alike across pipelines unless they name theirs.
        logPipeline: jobs.length > 1,
        clock,
        fullRefresh,
        metrics: exposure?.metrics,
        flushMetrics: exposure?.flush,
        ...(coordinator ? { coordinator } : {}),
      }).finally(() => output.close());
      summaries.push(summary);
      if (!args.quiet && !args.json) terminal.err(renderSummary(summary, terminal.colors));
      // A failed, interrupted or quota-stopped pipeline stops the ones after it (they share the
      // token), and so does a closed stdout (nobody reads what they would write).
      if ([EXIT_FAILURE, EXIT_USAGE, EXIT_QUOTA, EXIT_INTERRUPTED, EXIT_OUTPUT_CLOSED].includes(summary.exitCode)) break;
    }
  } finally {
    interrupts.dispose();
    await connections.closeAll().catch(() => undefined);
    await coordinator?.close().catch(() => undefined);
    // The textfile's last write holds the final counts; an error here is the command's error, told
    // below beside the runs' summaries (their work is committed) when the runs got to their end.
    metricsFailure = await exposure?.stop().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
  }
  if (metricsFailure) {
    const described = describeError(metricsFailure.error);
    sayFailure(terminal, described, metricsFailure.error);
    metricsError = described;
  }
  // Pipelines a stop kept from running are named: a scheduler reading exit 0 must be able to trust
  // that every pipeline ran, and a signal that lands between two pipelines stopped the second.
  const notRun = jobs.slice(summaries.length).map((job) => ({ pipeline: job.pipeline.name, file: job.ref.display }));
  const signal = interrupts.received();
  const last = summaries.at(-1);
  if (notRun.length > 0) sayNotRun(terminal, signal ?? (last ? `${last.pipeline} ${last.status}` : 'stopped'), notRun);
  const exitCode = worstExitCode([
    ...summaries.map((s) => s.exitCode),
    ...(signal !== undefined && notRun.length > 0 ? [EXIT_INTERRUPTED] : []),
    ...(metricsError ? [metricsError.exitCode] : []),
  ]);
  const error = metricsError ? { error: { code: metricsError.code, message: metricsError.message, ...(metricsError.hint ? { hint: metricsError.hint } : {}) } } : {};
  if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'run', exitCode, runs: summaries, ...(notRun.length > 0 ? { notRun } : {}), ...error }, dataOnStdout);
  return exitCode;
}

/** `quotelake: SIGTERM: not run: b (b.yaml); run the command again to run it` (a JSON line under --log-format json). */
function sayNotRun(terminal: Terminal, reason: string, notRun: readonly { pipeline: string; file: string }[]): void {
  const names = notRun.map((n) => `${n.pipeline} (${n.file})`).join(', ');
  terminal.notice(`quotelake: ${reason}: not run: ${names}; run the command again to run ${notRun.length === 1 ? 'it' : 'them'}`, {
    level: 'warn',
    event: 'not-run',
    reason,
    pipelines: notRun.map((n) => n.pipeline),
  });
}
