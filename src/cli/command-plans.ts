/** Plans files as the command line reads them: once per command, their errors usage errors. */
import { PlansFileError } from '../core/errors.js';
import { planLimits } from '../api/index.js';
import { readPlansFile, type PlansDocument } from '../core/plans-file.js';
import { UsageError } from './usage-error.js';

const plansCache = new Map<string, Promise<PlansDocument>>();

/** A plans file error as the usage error the command line reports (other errors as they are). */
export function plansUsageError(e: unknown, hint?: string): unknown {
  return e instanceof PlansFileError ? new UsageError(`plans file ${e.message}`, hint) : e;
}

/** A plans file read once per command, its errors as they are (PlansFileError). */
export function readPlansOnce(file: string): Promise<PlansDocument> {
  let read = plansCache.get(file);
  if (read === undefined) {
    read = readPlansFile(file);
    plansCache.set(file, read);
    read.catch(() => plansCache.delete(file));
  }
  return read;
}

/** A plans file a command names (flag, environment or pipeline), read once per command; its errors are usage errors. */
export async function readCommandPlans(file: string): Promise<PlansDocument> {
  try {
    return await readPlansOnce(file);
  } catch (e) {
    throw plansReadError(e);
  }
}

/** A plans file that could not be read or is wrong, as a usage error with what to do about it. */
export function plansReadError(e: unknown): unknown {
  // Which plan a command names is checked once the file is read, not here.
  const unreadable = e instanceof PlansFileError && e.unreadable;
  return plansUsageError(e, unreadable ? 'check the path given as --plans-file or QUOTELAKE_PLANS_FILE' : 'fix the plans file: README, "Plans file", says what it takes');
}

/** What to do about a plan that the plans file in use does not define. */
export const PLAN_NOT_IN_FILE_HINT = 'name a plan the file defines, or a built-in one';

/** `plan` checked against the plans file in use: neither built in nor defined there is a usage error naming the file and its plans. */
export function checkPlanInFile(plan: string, plans: PlansDocument): void {
  try {
    planLimits(plan, plans);
  } catch (e) {
    throw plansUsageError(e, PLAN_NOT_IN_FILE_HINT);
  }
}
