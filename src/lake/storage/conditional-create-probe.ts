/**
 * Whether a backend's putIfAbsent really refuses a second create. The Delta log and any lock on an
 * object store rest on it, and some S3-compatible stores accept `If-None-Match: *` and ignore it
 * (s3rver does; older MinIO and Ceph releases did): on those, two writers could both "win". A
 * writer that needs mutual exclusion asks once per run, before its first commit, and refuses to
 * go on when the answer is false.
 */
import type { LakeStorage } from './lake-storage.js';

/** The probe's key: bookkeeping space, named by the caller's run so two probes never share one. */
export function probeKey(runToken: string): string {
  return `_quotelake/probe/conditional-create-${runToken}`;
}

/** Creates a probe object twice: true when the second create is refused. The probe is removed. */
export async function conditionalCreateHolds(storage: LakeStorage, runToken: string): Promise<boolean> {
  const key = probeKey(runToken);
  try {
    const first = await storage.putIfAbsent(key, 'probe');
    const second = await storage.putIfAbsent(key, 'probe again');
    return first && !second;
  } finally {
    await storage.delete(key);
  }
}
