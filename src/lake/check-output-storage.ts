/**
 * The check of check-output-dir.ts for an output that is not a local folder (an object store):
 * before any request to the market service, a LIST of `_quotelake/` (recovery lists staging) and a
 * PUT then DELETE of a probe object under `_quotelake/probe/`. A missing bucket, refused
 * credentials, a denied permission or an unreachable endpoint fail here, at once, with the bucket,
 * the operation and the fix (s3-error.ts), instead of at the first commit after minutes of quota.
 */
import { EnvironmentError } from '../core/errors.js';
import { environmentErrorOf } from '../core/environment-error.js';
import { LAKE_DIR } from './lake-paths.js';
import type { LakeStorage } from './storage/lake-storage.js';

/** The probe's key: named by the run, so two runs' probes never meet. */
export function writeProbeKey(runToken: string): string {
  return `${LAKE_DIR}/probe/write-${runToken}`;
}

export async function checkOutputStorage(storage: LakeStorage, runToken: string): Promise<void> {
  const key = writeProbeKey(runToken);
  try {
    await storage.list(`${LAKE_DIR}/`);
    await storage.put(key, 'quotelake write probe\n');
    await storage.delete(key);
  } catch (error) {
    const env = environmentErrorOf(error, 'plan');
    if (!env) throw error;
    throw new EnvironmentError(env.code, `output ${storage.root}: ${env.message}`, env.target, env.fix, { stage: 'plan', retryable: env.retryable, cause: error });
  }
}
