/** Plans files as the command line reads them: once per command, their errors usage errors. */
import { PlansFileError } from '../core/errors.js';
import { readPlansFile, type PlansDocument } from '../core/plans-file.js';
import { UsageError } from './usage-error.js';

const plansCache = new Map<string, Promise<PlansDocument>>();

/** A plans file error as the usage error the command line reports (other errors as they are). */
export function plansUsageError(e: unknown, hint?: string): unknown {
  return e instanceof PlansFileError ? new UsageError(`plans file ${e.message}`, hint) : e;
}

/** A plans file a command names (flag, environment or pipeline), read once per command; its errors are usage errors. */
export async function readCommandPlans(file: string): Promise<PlansDocument> {
  let read = plansCache.get(file);
  if (read === undefined) {
    read = readPlansFile(file);
    plansCache.set(file, read);
    read.catch(() => plansCache.delete(file));
  }
  try {
    return await read;
  } catch (e) {
    // The file itself is wrong here; which plan a command names is checked once it is read.
    throw plansUsageError(e, 'fix the plans file: README, "Plans file", says what it takes');
  }
}
