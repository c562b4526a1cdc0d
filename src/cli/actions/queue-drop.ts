/**
 * `quotelake queue drop <pipeline>|--all`: what waits, what failed and the schedules, off the
 * queue. What it would drop is listed first, and dropped once confirmed (`--yes` in a script, as
 * other commands that throw work away); slices being run are left to finish.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { packageVersion } from '../../lake/package-version.js';
import { dropFound, findDroppable, pipelinesQueued, type DropPlan } from '../../queue/drop-jobs.js';
import type { QueueJobData } from '../../queue/slice-queue.js';
import { confirm } from '../confirm.js';
import { sayNotConfirmed } from '../not-confirmed.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { emitJson, type Terminal } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { DROP_WHAT, type DropWhat } from '../queue/drop-what.js';

export interface QueueDropArgs {
  readonly name?: string | undefined;
  readonly all: boolean;
  readonly only?: readonly DropWhat[] | undefined;
  readonly yes: boolean;
  readonly json: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function listing(plan: DropPlan, whose: string): string {
  const parts: string[] = [];
  if (plan.waiting.length > 0) parts.push(`${plural(plan.waiting.length, 'waiting slice')} (${plan.waiting.reduce((a, j) => a + j.requests, 0)} requests planned)`);
  if (plan.failed.length > 0) parts.push(plural(plan.failed.length, 'failed job'));
  for (const s of plan.schedules) parts.push(`the schedule ${s.name} ("${s.cron}" in ${s.tz})`);
  const running = plan.active > 0 ? `\n${plural(plan.active, 'running slice is', 'running slices are')} left to finish.` : '';
  return `quotelake: queue drop takes off the queue ${whose}: ${parts.join(', ')}.${running}\nCompleted slices stay (enqueueing the same run again skips them); what is dropped can be queued again with "quotelake enqueue".`;
}

export async function queueDrop(args: QueueDropArgs, queue: Queue<QueueJobData>, redis: Redis, terminal: Terminal): Promise<number> {
  if (args.all === (args.name !== undefined)) {
    throw new UsageError(args.all ? 'queue drop: give a pipeline name or --all, not both' : 'queue drop: name the pipeline whose jobs to drop, or give --all', 'e.g. quotelake queue drop kline-backfill (the pipeline\'s own name, as the worker logs show it; "queue drop NAME" of a name the queue holds nothing of lists those it holds)');
  }
  const only = new Set<DropWhat>(args.only?.length ? args.only : DROP_WHAT);
  const selection = { pipeline: args.name, waiting: only.has('waiting'), failed: only.has('failed'), schedules: only.has('schedules') };
  const plan = await findDroppable(queue, selection);
  const whose = args.name === undefined ? 'for every pipeline' : `for the pipeline ${args.name}`;
  const result = { quotelake: packageVersion(), command: 'queue drop', pipeline: args.name ?? null };
  if (plan.waiting.length + plan.failed.length + plan.schedules.length === 0) {
    // A name the queue holds nothing of is likely mistyped: not a silent success (as "queue unschedule").
    const names = args.name === undefined ? [] : await pipelinesQueued(queue);
    const unknown = args.name !== undefined && !names.includes(args.name);
    if (args.json) emitJson(terminal, { ...result, dropped: { waiting: 0, failed: 0, schedules: [], requests: 0 }, active: plan.active, takenMeanwhile: 0, ...(unknown ? { pipelinesQueued: names } : {}) }, false);
    else {
      const guess = args.name === undefined ? undefined : didYouMean(args.name, new Set(names));
      const known = unknown ? `; the queue holds ${names.length > 0 ? `the pipelines ${names.join(', ')}` : 'no pipeline\'s jobs'}${guess !== undefined ? ` (did you mean ${guess}?)` : ''}` : '';
      terminal.err(`quotelake: nothing to drop ${whose} (${[...only].join(', ')})${plan.active > 0 ? `; ${plural(plan.active, 'running slice')} left to finish` : ''}${known}`);
    }
    return unknown ? EXIT_FAILURE : EXIT_OK;
  }
  terminal.err(listing(plan, whose));
  const command = `quotelake queue drop ${args.name ?? '--all'}${args.only?.length ? ` --only ${[...only].join(' ')}` : ''}`;
  if (!(await confirm('Drop them?', { yes: args.yes, command }))) {
    const nothing = { pipeline: result.pipeline, dropped: { waiting: 0, failed: 0, schedules: [], requests: 0 }, active: plan.active, takenMeanwhile: 0 };
    return sayNotConfirmed(terminal, { command: 'queue drop', undone: 'dropped', json: args.json, nothing });
  }
  const dropped = await dropFound(queue, redis, plan);
  if (args.json) {
    emitJson(terminal, { ...result, dropped: { waiting: dropped.waiting, failed: dropped.failed, schedules: dropped.schedules, requests: dropped.requests }, active: plan.active, takenMeanwhile: dropped.takenMeanwhile }, false);
  } else {
    const schedules = dropped.schedules.length > 0 ? `, ${plural(dropped.schedules.length, 'schedule')} (${dropped.schedules.join(', ')})` : '';
    const taken = dropped.takenMeanwhile > 0 ? `; ${plural(dropped.takenMeanwhile, 'slice was', 'slices were')} taken by a worker meanwhile and run${dropped.takenMeanwhile === 1 ? 's' : ''}` : '';
    terminal.out(`dropped ${plural(dropped.waiting, 'waiting slice')}, ${plural(dropped.failed, 'failed job')}${schedules}${taken}\n`);
  }
  return EXIT_OK;
}
