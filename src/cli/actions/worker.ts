/**
 * `quotelake worker`: runs slices off the queue until stopped (or, with --until-empty, until the
 * queue holds nothing to do). One client per token and plan for all its slices, so its slices
 * share one limiter; across processes and hosts the coordinator's shared limiter paces them. A
 * token pool (QUOTELAKE_TOKENS, --tokens-file) works as in `run` (see queue/worker-clients.ts).
 */
import type { LogLevel } from '../../core/component.js';
import { AbortedError, ApiError, CoordinatorDownError, EnvironmentError } from '../../core/errors.js';
import { redactUrl } from '../../core/redact.js';
import { enqueueSlices } from '../../queue/enqueue-slices.js';
import { queueStatus } from '../../queue/queue-counts.js';
import { redisConnection } from '../../queue/redis-connection.js';
import { noteQuotaReset, quotaResetMet } from '../../queue/quota-reset.js';
import { epochKept, queueEpoch, watchQueueEpoch } from '../../queue/queue-epoch.js';
import { addRequestsLeft } from '../../queue/requests-left.js';
import { recordSliceFailed, slicesFailedSince } from '../../queue/slices-failed.js';
import { sliceQueue, type ScheduledRun } from '../../queue/slice-queue.js';
import { startSliceWorker } from '../../queue/slice-worker.js';
import type { Slice } from '../../queue/slice.js';
import { createLogger } from '../../runtime/logger.js';
import { commandClock } from '../clock-option.js';
import { createConnections } from '../connections.js';
import { describeError, sayFailure } from '../describe-error.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_QUOTA, EXIT_USAGE, worstExitCode } from '../exit-codes.js';
import { handleInterrupts, stopGraceMs, type StopWords } from '../interrupts.js';
import { SIGNAL_NOTICE, useJsonNotices } from '../json-notices.js';
import { loadJob, type PipelineJob } from '../pipeline-job.js';
import { cachedPipelineLoader } from '../../config/pipeline-cache.js';
import { checkCoordinator, coordinatorUrl, type CoordinatorArgs } from '../queue/coordinator.js';
import { connectRedisCoordinator } from '../../api/connect-redis-coordinator.js';
import { jobSlices } from '../queue/job-slices.js';
import { locateQueuedPipeline, PipelineNotHereError, type QueuedPipeline } from '../queue/slice-pipeline.js';
import { fetchSlice } from '../queue/fetch-slice.js';
import { checkSliceClock } from '../queue/slice-clock.js';
import { removeDeadSliceScratch } from '../queue/slice-scratch.js';
import { createSliceCommitter } from '../queue/slice-committer.js';
import { workerClients } from '../queue/worker-clients.js';
import { checkWorkerPlan } from '../queue/worker-plan.js';
import { poolQuotaStopFields, poolQuotaStopHint, poolQuotaStopSaid } from '../pool-quota-stop-said.js';
import { metricsSettings, type MetricsArgs } from '../metrics-options.js';
import { startMetricsExposure } from '../metrics-exposure.js';
import { resolveTokenPool } from '../token-pool-settings.js';
import { renderTokenSummaries } from '../token-summary.js';
import { registry } from '../registry.js';
import { logFormatOf, type ClockArgs, type LogArgs, type ServiceArgs, type StopArgs } from '../shared-options.js';
import { terminalFor } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { stalledTimeoutMs } from '../queue/stalled-timeout.js';
import { coordinatorPatience, type CoordinatorPatienceArgs } from '../coordinator-patience.js';

export interface WorkerArgs extends ServiceArgs, ClockArgs, LogArgs, StopArgs, CoordinatorArgs, MetricsArgs, CoordinatorPatienceArgs {
  concurrency: number;
  /** The S3-compatible store of slices whose output is s3:// (else AWS_ENDPOINT_URL, else AWS). */
  's3-endpoint'?: string | undefined;
  'stalled-timeout': number;
  'until-empty': boolean;
}

const WORKER_STOP_WORDS: StopWords = {
  stopping: (sig) => `quotelake worker: ${sig}: taking no new slice; the running ones finish or go back to the queue (send it again to quit at once)`,
  hung: (sig, s) => `quotelake worker: ${sig}: not stopped within ${s} s; exiting now (its slices are redelivered once their lock expires)`,
  again: (sig) => `quotelake worker: ${sig} again: exiting now; its slices are redelivered once their lock expires`,
};

/** `when`: " while this worker ran", or nothing when said as it happens. */
const lostWords = (when: string) => `Redis lost its data${when} (it restarted without persistence): the slices waiting or running on the queue then are gone, and its schedules`;
const QUEUE_LOST_TODO =
  'Run the same "quotelake enqueue" again, and each "quotelake enqueue --every" for the schedules (what was committed is merged, not doubled), and turn on Redis persistence (appendonly yes)';

/** Slices side by side in one worker process, at most (as a source's `concurrency`). */
export const MAX_CONCURRENCY = 64;

export async function workerHandler(args: WorkerArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor(args, env);
  // Each slice in flight holds its rows and a scratch folder: beyond what a plan's rate can feed, more only costs memory and files.
  if (!Number.isInteger(args.concurrency) || args.concurrency < 1 || args.concurrency > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, not ${args.concurrency}`, 'the plan paces every request anyway: a few slices side by side keep it busy (default 4)');
  }
  const stalledMs = stalledTimeoutMs(args['stalled-timeout']);
  // Only a batch gives up on Redis: on a worker run until stopped the patience would be silently ignored.
  if (args['coordinator-patience'] !== undefined && !args['until-empty']) {
    throw new UsageError(
      '--coordinator-patience goes with --until-empty: a worker run until stopped waits for Redis to come back, however long',
      'add --until-empty for a batch that stops without Redis, or leave --coordinator-patience out',
    );
  }
  const { seconds: patience, ms: patienceMs } = coordinatorPatience(args);
  // Settings before any connection: a wrong one is exit 2 whether the coordinator answers or not.
  const graceMs = stopGraceMs(args['stop-timeout'], env);
  const clock = commandClock(args.clock, env);
  // Before the first connection: ioredis prints its own lines as it connects (a password Redis does not need).
  const logFormat = logFormatOf(args, env);
  useJsonNotices(terminal, logFormat, clock);
  const metricsWanted = metricsSettings(args);
  const pool = await resolveTokenPool(args, env, { cwd: process.cwd() });
  // Checked before any slice is taken: a slice would fail on it, attempt after attempt.
  await checkWorkerPlan(args, env, pool);
  const url = coordinatorUrl(args, env);
  await checkCoordinator(url);
  // The same Redis paces every worker's requests: one plan's windows and day, whatever the hosts.
  // A restart (systemd, a failover) is waited for as the queue's connections wait for it: a batch
  // for its patience, a worker run until stopped however long; a stop ends the wait at once.
  const stopWaiting = new AbortController();
  const shared = await connectRedisCoordinator(url, {
    patienceMs: args['until-empty'] ? patienceMs : Number.POSITIVE_INFINITY,
    onWait: ({ message, event, waitMs }) =>
      terminal.notice(`quotelake worker: ${message}`, { level: 'warn', event, ...(Number.isFinite(waitMs) ? { waitMs } : {}), coordinator: redactUrl(url) }),
    stopWaiting: stopWaiting.signal,
  });
  const secrets = [args.token, env.QUOTELAKE_TOKEN, ...(pool?.tokens ?? []).map((t) => t.token)].filter((t): t is string => t !== undefined);
  for (const t of pool?.tokens ?? []) terminal.addSecret(t.token);
  const logger = createLogger({
    level: args['log-level'] as LogLevel,
    format: logFormat,
    color: terminal.stderrIsTTY && terminal.colors.isColorSupported,
    clock,
    redact: secrets,
    // Slices of every pipeline on the queue run here: each line names its pipeline (the name "queue drop" takes).
    showPipeline: true,
    write: (line) => terminal.stderr.write(terminal.redact(line)),
  });
  const interrupts = handleInterrupts((line) => terminal.notice(line, SIGNAL_NOTICE), { graceMs, words: WORKER_STOP_WORDS });
  const connections = createConnections((line, fields) => terminal.notice(line, fields), clock);
  // Both reconnect and wait through a Redis restart (a long-running worker must outlive one); the
  // BullMQ worker gets a connection of its own, as it blocks on it.
  const redis = redisConnection(url, 'worker');
  const workerRedis = redisConnection(url, 'worker');
  const queue = sliceQueue(redis);
  // Drawn beside the start-up, never in its way (a Redis down at start is the patience's business);
  // undefined when it failed: there is then no epoch to lose.
  const epochDrawn = queueEpoch(redis).catch(() => undefined);
  // A batch says it at its end (exit 1); a worker running until stopped says it when Redis is back.
  const stopWatchingEpoch = watchQueueEpoch(redis, epochDrawn, () => {
    if (!args['until-empty']) terminal.notice(`quotelake worker: ${lostWords('')}; this worker waits for new slices. ${QUEUE_LOST_TODO}`, { level: 'error', event: 'queue-lost' });
  });
  // What workers killed with kill -9 on this host left in the temp folder.
  const deadScratch = await removeDeadSliceScratch();
  if (deadScratch > 0) logger.info('removed the slice folders of workers no longer running', { event: 'recovery', action: 'slice-scratch-removed', folders: deadScratch });
  const service = { 'base-url': args['base-url'], token: args.token, plan: args.plan, 'plans-file': args['plans-file'] };
  const exposure = metricsWanted ? await startMetricsExposure(metricsWanted, (line, notice, asText) => terminal.notice(line, notice, asText)) : undefined;
  const committer = createSliceCommitter({ registry, clock, logger, redis, s3Endpoint: args['s3-endpoint'], metrics: exposure?.metrics });
  const clients = workerClients({
    logger,
    clock,
    connections,
    pool,
    coordinator: shared,
    metrics: exposure?.metrics,
    addSecret: (t) => terminal.addSecret(t),
  });

  // With --until-empty, slices waiting for the quota's reset that a worker of the queue met (this
  // process or another: quota-reset.ts, the command's clock) end the batch rather than keep the
  // process until the reset; these say which reset and how many slices, for the last line.
  let quotaResetAt: number | undefined;
  let waitingForQuota = 0;
  // Every slice loads its pipeline file; one parse per text serves them all.
  const loadPipelineFile = cachedPipelineLoader();
  // Another host may hold the file the slice was queued with: not finding it here is this worker's fault.
  const locate = async (queued: QueuedPipeline, load: (path: string) => Promise<PipelineJob>): Promise<PipelineJob> => {
    try {
      return await locateQueuedPipeline(queued, process.cwd(), load);
    } catch (error) {
      throw error instanceof PipelineNotHereError ? new WorkerSettingsError(error) : error;
    }
  };
  const runOne = async (slice: Slice, signal: AbortSignal) => {
    const startedAt = clock.now();
    try {
      return await runSliceOnce(slice, signal, startedAt);
    } catch (error) {
      // A slice that failed is a way of ending too (retried later, or for good): a dashboard must see it.
      // One this worker could not run (its own settings, a stop) goes back to the queue untouched:
      // a wait for Redis that the stop ended too (the slice did not fail, the worker left it).
      const stoppedWaiting = stopWaiting.signal.aborted && error instanceof CoordinatorDownError;
      if (stoppedWaiting) {
        logger.warn(`slice put back: ${slice.codes.join(',')} ${slice.interval} ${slice.partition}`, { event: 'slice-released', pipeline: slice.name, partition: slice.partition });
        exposure?.metrics.sliceFinished(slice.name, 'released', clock.now() - startedAt);
        return 'aborted' as const;
      }
      const back = error instanceof WorkerSettingsError || error instanceof AbortedError || signal.aborted;
      exposure?.metrics.sliceFinished(slice.name, back ? 'released' : 'failed', clock.now() - startedAt);
      throw error;
    }
  };
  const runSliceOnce = async (slice: Slice, signal: AbortSignal, startedAt: number) => {
    // A clock behind the slice's end would leave its newest bars out for good: this worker's fault.
    try {
      checkSliceClock(slice, clock.now());
    } catch (error) {
      throw new WorkerSettingsError(error);
    }
    const settings = { ...service, output: slice.output, format: slice.format as never, 'state-dir': slice.stateDir };
    const job = await locate(slice, (path) => loadJob(path, settings, env, process.cwd(), loadPipelineFile));
    // Its token, base URL and plan are this worker's own settings (never stored in Redis).
    const client = await clients.clientFor(job).catch((error: unknown) => {
      throw new WorkerSettingsError(error);
    });
    const what = `${slice.codes.join(',')} ${slice.interval} ${slice.partition}`;
    logger.info(`slice started: ${what}`, { event: 'slice-start', pipeline: slice.name, codes: slice.codes, interval: slice.interval, partition: slice.partition });
    const fetched = await fetchSlice(job, slice, { registry, client, clock, logger }, signal);
    if (fetched === 'aborted') {
      logger.warn(`slice put back: ${what}`, { event: 'slice-released', pipeline: slice.name, partition: slice.partition });
      exposure?.metrics.sliceFinished(slice.name, 'released', clock.now() - startedAt);
      return 'aborted' as const;
    }
    await committer.commit(fetched);
    const outcome = {
      requests: fetched.requests,
      rows: fetched.rows.length,
      ...(fetched.quotaResetAt !== undefined ? { quotaWaitMs: Math.max(1000, fetched.quotaResetAt - clock.now()) } : {}),
    };
    if (outcome.quotaWaitMs !== undefined) {
      await noteQuotaReset(redis, fetched.quotaResetAt!, outcome.quotaWaitMs);
      const again = `it runs again in ${Math.ceil(outcome.quotaWaitMs / 60_000)} min`;
      const { poolStop } = fetched;
      // A pool's stop names the tokens and codes: "the daily quota" alone reads as the whole pool spent.
      const why = poolStop ? `${poolQuotaStopSaid(poolStop, pool?.tokens.length ?? 0)}; ${again}. ${poolQuotaStopHint(poolStop)}` : again;
      logger.warn(`slice waits for the daily quota: ${what}: ${outcome.rows} rows committed; ${why}`, {
        event: 'slice-quota',
        pipeline: slice.name,
        rows: outcome.rows,
        waitMs: outcome.quotaWaitMs,
        ...(poolStop ? poolQuotaStopFields(poolStop) : {}),
      });
    }
    exposure?.metrics.sliceFinished(slice.name, outcome.quotaWaitMs !== undefined ? 'quota' : 'done', clock.now() - startedAt);
    if (outcome.quotaWaitMs === undefined) logger.info(`slice done: ${what}: ${outcome.rows} rows, ${outcome.requests} requests`, { event: 'slice-end', pipeline: slice.name, rows: outcome.rows, requests: outcome.requests });
    return outcome;
  };

  const expand = async (run: ScheduledRun) => {
    const settings = { ...service, since: run.since, until: run.until, codes: run.codes, output: run.output, format: run.format as never, 'state-dir': run.stateDir };
    // A firing takes the file as it is then (no definition to check), if it is still the pipeline named.
    const job = await locate(run, (path) => loadJob(path, settings, env, process.cwd(), loadPipelineFile));
    // A schedule fires at its own time: its spans count back from then, not from a --clock instant.
    const firedAt = clock.now();
    const slices = jobSlices(job, { pipeline: run.pipeline, pipelinePath: job.ref.path, output: run.output, format: run.format, stateDir: run.stateDir }, { nowMs: firedAt, spanFromMs: firedAt }, run.sliceRequests);
    const counts = await enqueueSlices(queue, redis, slices);
    logger.info(`schedule fired: ${job.pipeline.name}: ${slices.length} slices, ${counts.added} new`, { event: 'schedule-fired', slices: slices.length, added: counts.added });
  };

  // Exit codes of the slices this process failed for good: a drained queue that did not deliver
  // everything never exits 0. Each is recorded in Redis too, for the other workers draining it.
  const failedForGood: number[] = [];
  const ownFailures = new Set<string>();
  const recording = new Set<Promise<void>>();
  // On the machine's clock, as the failures are recorded: those of other workers from now on are this batch's too.
  const workerStartedAt = Date.now();
  let failedElsewhere: number[] = [];
  // This worker cannot run slices at all (its token refused, its service settings wrong): it stops,
  // the slice back on the queue for a worker that can, rather than fail the queue slice by slice.
  let fault: unknown;
  const faulted = new AbortController();
  // What ends the wait below before the queue does: a signal, or this worker's own fault.
  const stopped = AbortSignal.any([interrupts.signal, faulted.signal]);
  stopped.addEventListener('abort', () => stopWaiting.abort(), { once: true });
  const worker = startSliceWorker({
    connection: workerRedis,
    concurrency: args.concurrency,
    stalledMs,
    runSlice: runOne,
    expandSchedule: expand,
    sliceDone: (slice) => addRequestsLeft(redis, -slice.requests),
    isPermanent: isPermanentSliceError,
    failedForGood: (id, error) => {
      const exitCode = describeError(error).exitCode;
      failedForGood.push(exitCode);
      ownFailures.add(id);
      const recorded = recordSliceFailed(redis, { id, exitCode }, Date.now()).catch(() => undefined);
      recording.add(recorded);
      void recorded.finally(() => recording.delete(recorded));
    },
    isWorkerFault,
    workerFault: (error) => {
      fault ??= error instanceof WorkerSettingsError ? error.original : error;
      faulted.abort();
    },
    log: (line, fields) => logger.warn(line, fields),
  });

  // A batch (--until-empty) must end: without its coordinator for this long it stops, exit 1. A
  // worker without it waits for Redis to come back, however long (a daemon outlives a restart).
  let coordinatorDown: CoordinatorDownError | undefined;
  let queueLost = false;
  try {
    await new Promise<void>((resolve) => {
      if (stopped.aborted) return resolve();
      stopped.addEventListener('abort', () => resolve(), { once: true });
      if (!args['until-empty']) return;
      let polling = false;
      let pollStartedAt = 0;
      let reachableAt = Date.now();
      const poll = setInterval(() => {
        // Commands wait for a reconnection (the worker's connection never gives one up): judged by
        // the connection's state, one status call at a time. A server that keeps the connection
        // and answers nothing (frozen, behind a partition) was last heard of when that call went.
        const now = Date.now();
        if (redis.status === 'ready') reachableAt = polling ? pollStartedAt : now;
        if (now - reachableAt >= patienceMs) {
          coordinatorDown = new CoordinatorDownError(redactUrl(url), `${redis.status === 'ready' ? 'no answer' : 'no connection'} for ${patience} s`);
          clearInterval(poll);
          return resolve();
        }
        if (polling) return;
        polling = true;
        pollStartedAt = now;
        void (async () => {
          const s = await queueStatus(queue, redis, 1);
          const drained = s.waiting === 0 && s.active === 0;
          // Nothing runs or can run, and a worker met the quota: what waits is delayed for its reset.
          const met = drained || s.runnable > 0 || s.active > 0 ? undefined : await quotaResetMet(redis);
          if (!drained && met === undefined) return;
          if (met !== undefined) {
            quotaResetAt = met;
            waitingForQuota = s.waiting;
          }
          clearInterval(poll);
          resolve();
        })()
          .catch(() => undefined)
          .finally(() => {
            polling = false;
          });
      }, 500);
      stopped.addEventListener('abort', () => clearInterval(poll), { once: true });
    });
    // Slices still running get half the stop timeout to finish, then go back to the queue (without
    // a coordinator they cannot commit: they are redelivered once it is back).
    await worker.stop(stopped.aborted || coordinatorDown !== undefined ? Math.floor(graceMs / 2) : 2_147_483_647, { queueGone: coordinatorDown !== undefined });
    if (coordinatorDown === undefined) {
      const epoch = await epochDrawn;
      if (epoch !== undefined) queueLost = !(await epochKept(redis, epoch).catch(() => true));
      await Promise.all(recording);
      // A drained batch answers for the whole queue: slices other workers failed for good meanwhile count.
      if (args['until-empty'] && !stopped.aborted) {
        const failures = await slicesFailedSince(redis, workerStartedAt).catch(() => []);
        failedElsewhere = failures.filter((f) => !ownFailures.has(f.id)).map((f) => f.exitCode);
      }
    }
  } finally {
    interrupts.dispose();
    stopWatchingEpoch();
    // Without Redis, what waits on it would wait for ever: its connections are let go of first, so
    // what is left fails at once instead.
    if (coordinatorDown !== undefined) {
      redis.disconnect();
      workerRedis.disconnect();
    }
    const cleanup = (async () => {
      // Each pool token's use in this process: what it sent, its 429s, what is left of its day.
      for (const [label, line] of renderTokenSummaries(await clients.tokenSummaries().catch(() => []))) logger.info(`${label}: ${line}`, { event: 'token-use' });
      for (const note of await clients.rateLimitNotes().catch(() => [])) logger.warn(note, { event: 'rate-limited-plan' });
      await clients.closeAll();
      await exposure?.stop().catch(() => undefined);
      await queue.close().catch(() => undefined);
      redis.disconnect();
      workerRedis.disconnect();
      await connections.closeAll().catch(() => undefined);
      await shared.close().catch(() => undefined);
    })();
    // A batch must end: without its coordinator (a frozen one keeps the connection and answers
    // nothing), what is left to close may wait on it for ever. The command's exit ends the rest.
    if (coordinatorDown === undefined) await cleanup;
    else {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([cleanup.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
  }
  if (interrupts.received() !== undefined) return EXIT_INTERRUPTED;
  if (fault !== undefined) {
    const described = describeError(fault);
    sayFailure(terminal, { ...described, message: `worker stopped: ${described.message}; the slice went back to the queue, for this worker once mended or another one` }, fault);
    return described.exitCode === EXIT_OK ? EXIT_FAILURE : described.exitCode;
  }
  if (coordinatorDown !== undefined) {
    const described = describeError(coordinatorDown);
    sayFailure(terminal, { ...described, message: `worker --until-empty stopped: ${described.message}; what it had not committed goes back to the queue` }, coordinatorDown);
    return described.exitCode;
  }
  if (queueLost) {
    terminal.notice(
      `quotelake worker: ${lostWords(' while this worker ran')}, so the queue only looks drained. ${QUEUE_LOST_TODO}`,
      { level: 'error', event: 'queue-lost' },
    );
  }
  if (failedForGood.length > 0) {
    terminal.notice(`quotelake worker: ${failedForGood.length} slice${failedForGood.length === 1 ? '' : 's'} failed for good (the lines above say why); "quotelake queue status" counts them`, {
      level: 'error',
      event: 'slices-failed',
      slices: failedForGood.length,
    });
  }
  if (failedElsewhere.length > 0) {
    terminal.notice(
      `quotelake worker: ${failedElsewhere.length} slice${failedElsewhere.length === 1 ? '' : 's'} failed for good on another worker while this one ran (that worker's log says why); "quotelake queue status" counts them`,
      { level: 'error', event: 'slices-failed', slices: failedElsewhere.length, elsewhere: true },
    );
  }
  if (waitingForQuota > 0) {
    const at = new Date(quotaResetAt!).toISOString();
    terminal.notice(
      `quotelake worker: the daily quota is used up; ${waitingForQuota} slice${waitingForQuota === 1 ? ' waits' : 's wait'} on the queue for its reset at ${at}: run the worker again after it (what was fetched is committed)`,
      { event: 'quota-exhausted', slices: waitingForQuota, resetAt: at },
    );
  }
  return worstExitCode([waitingForQuota > 0 ? EXIT_QUOTA : EXIT_OK, queueLost ? EXIT_FAILURE : EXIT_OK, ...failedForGood, ...failedElsewhere]);
}

/** What this worker's client could not be built from: its token, base URL, plan or plans file. */
class WorkerSettingsError extends Error {
  constructor(readonly original: unknown) {
    super(original instanceof Error ? original.message : String(original));
  }
}

/**
 * What this host's storage settings cause, not the slice: its AWS region, credentials or their
 * grants (another worker's may write the same lake), or its disk refusing or full.
 */
const WORKER_STORAGE_CODES = new Set(['QL_S3_REGION', 'QL_S3_CREDENTIALS', 'QL_S3_ACCESS_DENIED', 'QL_OUTPUT_DENIED', 'QL_DISK_FULL']);

/** The worker's own, not the slice's: its service settings, its token refused by the service, or its storage settings. */
function isWorkerFault(error: unknown): boolean {
  if (error instanceof WorkerSettingsError) return true;
  if (error instanceof EnvironmentError && WORKER_STORAGE_CODES.has(error.code)) return true;
  return error instanceof ApiError && !error.retryable && (error.code === 'QL_API_TOKEN_INVALID' || error.ret === 401);
}

/**
 * An error every attempt of the slice would meet again, on any worker: the pipeline file or the
 * plans file is wrong (exit 2), or the service refused the products (600, 604, 605).
 */
function isPermanentSliceError(error: unknown): boolean {
  if (describeError(error).exitCode === EXIT_USAGE) return true;
  return error instanceof ApiError && !error.retryable && [600, 604, 605].includes(error.ret ?? 0);
}
