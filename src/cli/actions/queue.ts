/** `quotelake queue status|schedules|unschedule|drop`: what the queue holds, its ETA, its schedules, and taking work off it. */
import { planLimits } from '../../api/index.js';
import { packageVersion } from '../../lake/package-version.js';
import { queueStatus } from '../../queue/queue-counts.js';
import { quotaResetMet } from '../../queue/quota-reset.js';
import { redisConnection } from '../../queue/redis-connection.js';
import { listSchedules, removeSchedule } from '../../queue/schedules.js';
import { sliceQueue } from '../../queue/slice-queue.js';
import { commandClock } from '../clock-option.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { readCommandPlans } from '../command-plans.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { checkCoordinator, coordinatorUrl, type CoordinatorArgs } from '../queue/coordinator.js';
import type { ClockArgs, ServiceArgs } from '../shared-options.js';
import { emitJson, terminalFor } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { queueDrop } from './queue-drop.js';
import type { DropWhat } from '../queue/drop-what.js';

export interface QueueArgs extends ServiceArgs, ClockArgs, CoordinatorArgs {
  action: 'status' | 'schedules' | 'unschedule' | 'drop';
  name?: string | undefined;
  all: boolean;
  only?: DropWhat[] | undefined;
  yes: boolean;
  json: boolean;
}

/** Requests per second the plan sustains: the tighter of its per-second and per-minute windows. */
export function planRate(limits: ReturnType<typeof planLimits>): number {
  const perSecond = (limits.perSecond.limit * 1000) / limits.perSecond.windowMs;
  const perMinute = (limits.perMinute.limit * 1000) / limits.perMinute.windowMs;
  return Math.min(perSecond, perMinute);
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min ${seconds % 60} s`;
}

export async function queueHandler(args: QueueArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const terminal = terminalFor(args, env);
  // Drop's own options: on another action they would be silently ignored, which hides a slip.
  const dropOnly = [args.all && '--all', args.only !== undefined && '--only', args.yes && '--yes'].filter((o): o is string => typeof o === 'string');
  if (args.action !== 'drop' && dropOnly.length > 0) {
    throw new UsageError(`${dropOnly.join(' and ')} ${dropOnly.length > 1 ? 'go' : 'goes'} with "queue drop", not "queue ${args.action}"`, 'run "quotelake queue --help" for what each action takes');
  }
  const url = coordinatorUrl(args, env);
  await checkCoordinator(url);
  const redis = redisConnection(url, 'client');
  const queue = sliceQueue(redis);
  try {
    if (args.action === 'status') {
      const plan = args.plan ?? env.QUOTELAKE_PLAN ?? 'professional';
      const plansFile = args['plans-file'] ?? env.QUOTELAKE_PLANS_FILE;
      const plans = plansFile !== undefined ? await readCommandPlans(plansFile) : undefined;
      let limits;
      try {
        limits = planLimits(plan, plans);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      const rate = planRate(limits);
      const s = await queueStatus(queue, redis, rate);
      // What waits and none may run, where a worker met the daily quota: nothing moves before its reset.
      const resetAt = s.waiting > 0 && s.runnable === 0 && s.active === 0 ? await quotaResetMet(redis) : undefined;
      const untilReset = resetAt === undefined ? 0 : Math.max(0, Math.ceil((resetAt - commandClock(args.clock, env).now()) / 1000));
      const eta = { seconds: untilReset + s.etaSeconds, requestsLeft: s.requestsLeft, plan: limits.name, requestsPerSecond: rate, quotaResetAt: resetAt === undefined ? null : new Date(resetAt).toISOString() };
      if (args.json) emitJson(terminal, { waiting: s.waiting, active: s.active, completed: s.completed, failed: s.failed, eta }, false);
      else {
        // Nothing queued or running: an ETA would promise progress that no worker is making.
        const idle = s.waiting === 0 && s.active === 0;
        const atReset = resetAt === undefined ? '' : `, after the daily quota's reset at ${eta.quotaResetAt} (in ${duration(untilReset)}): a worker met it, so nothing runs before`;
        const left =
          s.requestsLeft === 0
            ? 'nothing to run\n'
            : `nothing to run: the ${s.requestsLeft} requests left are ${s.failed > 0 ? `the failed slices' (enqueue the same run again to retry them)` : 'counted for slices no longer queued'}\n`;
        terminal.out(
          `waiting ${s.waiting}, active ${s.active}, completed ${s.completed}, failed ${s.failed}\n` +
            (idle ? left : `ETA ${duration(eta.seconds)}: ${s.requestsLeft} requests left at the ${limits.name} plan's ${rate} requests/s${atReset}\n`),
        );
      }
      return EXIT_OK;
    }
    if (args.action === 'schedules') {
      const list = await listSchedules(queue, commandClock(args.clock, env).now());
      if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'queue schedules', schedules: list }, false);
      else if (list.length === 0) terminal.out('no schedules\n');
      else {
        for (const s of list) {
          const late = s.overdue === null ? '' : `; the firing of ${s.overdue} is overdue: no worker has taken it (is one running?)`;
          terminal.out(`${s.name}: ${s.file ?? s.pipeline} at "${s.cron}" in ${s.tz}; next ${s.next.join(', ')}${late}\n`);
        }
      }
      return EXIT_OK;
    }
    if (args.action === 'drop') return await queueDrop(args, queue, redis, terminal);
    if (args.name === undefined) throw new UsageError('name the schedule to remove', 'see "quotelake queue schedules"');
    const removed = await removeSchedule(queue, args.name);
    if (!removed) {
      // A mistyped name: say which the queue holds, as "queue drop" names the pipelines.
      const names = (await listSchedules(queue, commandClock(args.clock, env).now())).map((s) => s.name);
      const guess = didYouMean(args.name, names);
      const held = names.length === 0 ? 'no schedule' : `the schedule${names.length === 1 ? '' : 's'} ${names.join(', ')}${guess !== undefined ? ` (did you mean ${guess}?)` : ''}`;
      terminal.err(`quotelake: no schedule named ${args.name}; the queue holds ${held}\n  hint: "quotelake queue schedules" lists them; "quotelake enqueue <pipeline> --every CRON" makes one`);
      return EXIT_FAILURE;
    }
    terminal.out(`schedule ${args.name} removed\n`);
    return EXIT_OK;
  } finally {
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}
