/** `quotelake plan`: loaded only when the command runs. */
import { loadJobs } from '../pipeline-job.js';
import { printPlans } from '../plan-report.js';
import { commandClock } from '../clock-option.js';
import { chooseTarget } from '../service-target.js';
import type { ClockArgs, CoordinatorArgs, DataArgs, OutputArgs, ServiceArgs } from '../shared-options.js';
import { coordinatorUrlOf } from '../coordinator.js';
import { readSharedDayCounts } from '../shared-day-counts.js';
import { terminalFor } from '../terminal.js';
import { checkJobTokenPool, resolveTokenPool, type TokenPoolArgs } from '../token-pool-settings.js';

export interface PlanArgs extends ServiceArgs, OutputArgs, DataArgs, ClockArgs, TokenPoolArgs, CoordinatorArgs {
  pipeline: string[];
  json: boolean;
}

export async function planAction(args: PlanArgs): Promise<number> {
    const terminal = terminalFor(args, process.env);
    const clock = commandClock(args.clock, process.env);
    const jobs = await loadJobs(args.pipeline, args, process.env);
    // Several tokens: the estimate counts their rates and their days together.
    const pool = await resolveTokenPool(args, process.env, { cwd: process.cwd(), pipelineFiles: jobs.map((j) => j.ref.path) });
    for (const t of pool?.tokens ?? []) terminal.addSecret(t.token);
    if (pool) for (const j of jobs) checkJobTokenPool(pool, j);
    for (const j of jobs) terminal.addSecret(chooseTarget(j.resolved, j.plans, pool?.tokens).token);
    // With a coordinator the day is counted in Redis, not in the quota file: plan on that count.
    const coordinatorUrl = coordinatorUrlOf(args, process.env);
    const sharedDays = coordinatorUrl !== undefined ? await readSharedDayCounts(coordinatorUrl) : undefined;
    return printPlans(terminal, jobs, clock, { pool: pool?.tokens, s3Endpoint: args['s3-endpoint'], ...(sharedDays ? { sharedDays } : {}) }, args.json);
}
