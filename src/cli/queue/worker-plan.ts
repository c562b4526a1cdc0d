/**
 * A worker's own plan (--plan, else QUOTELAKE_PLAN), or the plans of its token pool, checked at
 * start as `run` checks them. Every slice runs with them, so a wrong name met only by the first
 * slice would let a worker on an empty queue (a batch on cron) exit 0, and look healthy, until the
 * day a slice arrives.
 */
import { PlanWithoutPlansFileError, resolveSettings } from '../../config/resolve-settings.js';
import { PLAN_NAMES } from '../../core/plan-names.js';
import { checkPlanInFile, readCommandPlans } from '../command-plans.js';
import type { ServiceArgs } from '../shared-options.js';
import { checkPoolPlans, refusePoolBeside, refuseRepeatedTokens, type TokenPoolSettings } from '../token-pool-settings.js';
import { UsageError } from '../usage-error.js';

/**
 * A custom plan must be defined by the worker's own plans file (--plans-file, else
 * QUOTELAKE_PLANS_FILE): its plan serves every pipeline on the queue, not only those whose
 * service.plansFile might define it.
 */
const WORKER_PLANS_FILE = "--plans-file or QUOTELAKE_PLANS_FILE, the worker's own";

export async function checkWorkerPlan(args: ServiceArgs, env: NodeJS.ProcessEnv, pool: TokenPoolSettings | undefined): Promise<void> {
  if (pool) {
    // The mistakes of the pool itself first: they stand whatever the plans file says.
    refusePoolBeside(pool, args.token ?? env.QUOTELAKE_TOKEN, args.plan);
    refuseRepeatedTokens(pool);
  }
  let plan: string | undefined;
  let plansFile: string | undefined;
  try {
    ({ plan, plansFile } = resolveSettings({ flags: { plan: args.plan, plansFile: args['plans-file'] }, env }).settings);
  } catch (e) {
    if (e instanceof PlanWithoutPlansFileError) {
      // run's words and hint for a plan neither built in nor in a plans file (run-settings.ts).
      throw new UsageError(new PlanWithoutPlansFileError(e.plan, e.planOrigin, WORKER_PLANS_FILE).message, `plans: ${PLAN_NAMES.join(', ')}`);
    }
    throw e;
  }
  // A plans file the slices would all fail to read is the worker's setting too.
  const plans = plansFile === undefined ? undefined : await readCommandPlans(plansFile);
  // Each pool token's plan serves every pipeline on the queue, as a single plan does.
  if (pool) checkPoolPlans(pool, plans, WORKER_PLANS_FILE);
  else if (plans !== undefined && plan !== undefined) checkPlanInFile(plan, plans);
}
