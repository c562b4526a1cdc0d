/** `quotelake enqueue`: a run split into slices on the queue, now or on a cron schedule. */
import { resolve } from 'node:path';
import { spanAnchor } from '../../core/clock.js';
import { isIanaZone, zoneGuess } from '../../core/iana-zone.js';
import { isS3Url } from '../../core/s3-url.js';
import { enqueueSlices } from '../../queue/enqueue-slices.js';
import { exitOnInterrupt } from '../interrupts.js';
import { redisConnection } from '../../queue/redis-connection.js';
import { nextFirings, upsertSchedule } from '../../queue/schedules.js';
import { sliceQueue } from '../../queue/slice-queue.js';
import { commandClock } from '../clock-option.js';
import { emptyWindow } from '../../sources/shared/empty-window.js';
import { EXIT_OK } from '../exit-codes.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';
import { loadJob } from '../pipeline-job.js';
import { checkCoordinator, coordinatorUrl, type CoordinatorArgs } from '../queue/coordinator.js';
import { jobSlices } from '../queue/job-slices.js';
import type { ClockArgs, DataArgs, OutputArgs, ServiceArgs } from '../shared-options.js';
import { emitJson, terminalFor } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { packageVersion } from '../../lake/package-version.js';

export interface EnqueueArgs extends ServiceArgs, OutputArgs, DataArgs, ClockArgs, CoordinatorArgs {
  pipeline: string;
  every?: string | undefined;
  tz?: string | undefined;
  name?: string | undefined;
  'slice-requests': number;
  json: boolean;
}

/** A schedule's name is a key on the queue and a word in every listing: letters, digits, `.`, `_`, `-`. */
const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

function checkScheduleWords(args: EnqueueArgs): void {
  if (args.name !== undefined && !SCHEDULE_NAME.test(args.name)) {
    throw new UsageError(`--name ${JSON.stringify(args.name)}: a schedule name is letters, digits, ".", "_" and "-" (at most 200, starting with a letter or digit)`, 'e.g. --name nightly-backfill; leave it out for the pipeline\'s name');
  }
  if (args.tz !== undefined && !isIanaZone(args.tz)) {
    throw new UsageError(`--tz ${JSON.stringify(args.tz)} is not a known IANA time zone${zoneGuess(args.tz)}`, 'e.g. --tz Europe/London, --tz America/New_York (default UTC)');
  }
}

/** An s3:// lake as it is; a folder made absolute against this command's own. */
function lakeLocation(outputDir: string): string {
  return isS3Url(outputDir) ? outputDir : resolve(outputDir);
}

export async function enqueueHandler(args: EnqueueArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor(args, env);
  checkScheduleWords(args);
  const url = coordinatorUrl(args, env);
  await checkCoordinator(url);
  const clock = commandClock(args.clock, env);
  // Loaded here even for a schedule: a bad file or override fails now, not at 02:00 on a worker.
  const job = await loadJob(args.pipeline, args, env);
  refuseIdleS3Endpoint(args['s3-endpoint'], [job.resolved.settings.outputDir]);
  // Where the lake is, as this command sees it: a worker started in another folder (or on another
  // host) would read a relative path from its own, and split one lake into several.
  const output = lakeLocation(job.resolved.settings.outputDir);
  // A state folder given (not the lake's own) travels too, absolute for the same reason.
  const stateDir = job.resolved.origin.stateDir === 'default' ? undefined : lakeLocation(job.resolved.settings.stateDir);
  // The file as given and as found: a worker started in another folder still finds it (slice-pipeline.ts).
  const target = { pipeline: args.pipeline, pipelinePath: job.ref.path, output, format: args.format, stateDir };
  const budget = args['slice-requests'];
  if (!Number.isInteger(budget) || budget < 1) throw new UsageError(`--slice-requests ${String(budget)}: ${Number.isInteger(budget) ? 'a slice needs at least 1 request' : 'not a whole number of requests'}`, 'give a whole number of 1 or more, e.g. --slice-requests 32');
  if (args.every === undefined && (args.tz !== undefined || args.name !== undefined)) throw new UsageError('--tz and --name go with --every');
  const redis = redisConnection(url, 'client');
  const queue = sliceQueue(redis);
  try {
    if (args.every !== undefined) {
      const tz = args.tz ?? 'UTC';
      let next: number[];
      try {
        next = nextFirings(args.every, tz, clock.now());
      } catch (e) {
        throw new UsageError(`--every "${args.every}" --tz ${tz}: ${(e as Error).message}`, 'give a cron pattern such as "0 2 * * *" (02:00 daily) and an IANA zone such as Europe/London');
      }
      jobSlices(job, target, { nowMs: clock.now(), spanFromMs: spanAnchor(clock) }, budget); // the pipeline can be sliced at all
      const name = args.name ?? job.pipeline.name;
      await upsertSchedule(queue, { name, cron: args.every, tz, run: { pipeline: args.pipeline, pipelinePath: job.ref.path, name: job.pipeline.name, since: args.since, until: args.until, codes: args.codes, output, format: args.format, stateDir, sliceRequests: budget } });
      const nextIso = next.map((ms) => new Date(ms).toISOString());
      if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'enqueue', schedule: { name, cron: args.every, tz, next: nextIso } }, false);
      else terminal.out(`schedule ${name}: "${args.every}" in ${tz}; next ${nextIso.join(', ')}\n`);
      return EXIT_OK;
    }
    const nowMs = clock.now();
    const slices = jobSlices(job, target, { nowMs, spanFromMs: spanAnchor(clock) }, budget);
    // No slice is never a silent "0": say why when the window is the reason.
    const window = slices.length === 0 ? emptyWindow(job.pipeline.source as { since?: unknown; until?: unknown }, nowMs) : undefined;
    if (window !== undefined) terminal.err(`quotelake: ${job.pipeline.name}: nothing to queue${window.notYet ? ' yet' : ''}: ${window.reason}`);
    // A long enqueue (years of slices) stopped half-way: say what is left, rather than end in silence.
    const interrupts = exitOnInterrupt((line) => terminal.err(line), (sig) => `quotelake: enqueue ${sig}: stopped with part of the run's ${slices.length} slices queued; enqueue the same run again to queue the rest (what is queued is not queued twice)`);
    let counts;
    try {
      counts = await enqueueSlices(queue, redis, slices);
    } finally {
      interrupts.dispose();
    }
    const requests = slices.reduce((a, s) => a + s.requests, 0);
    if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'enqueue', pipeline: job.pipeline.name, slices: slices.length, ...counts, requests }, false);
    else {
      terminal.out(
        `${job.pipeline.name}: ${slices.length} slices (${requests} requests planned): ${counts.added} new, ${counts.queued} already queued, ${counts.completed} already done` +
          `${counts.retried > 0 ? `, ${counts.retried} failed ones retried` : ''}` +
          `${counts.superseded > 0 ? `, ${counts.superseded} failed ones of a shorter range replaced` : ''}\n`,
      );
    }
    return EXIT_OK;
  } finally {
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}
