/**
 * The one lock a writer of a lake takes, whatever the lake is on: a local output folder keeps its
 * pid lock (output-lock.ts, unchanged), a lake on an object store the lease `_quotelake/lock`
 * (lake-lease.ts). Callers hold it for the whole run and check `assertHeld` before each commit.
 */
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { acquireLakeLease, type LeaseOptions } from './lake-lease.js';
import { acquireOutputLock } from './output-lock.js';
import { isLocalLake } from './state-location.js';

export interface RunLock {
  /** The lock file or the lease object, for messages. */
  readonly path: string;
  /** False only on an object store that ignores conditional writes: the lease cannot exclude there. */
  readonly enforced: boolean;
  /** Throws (QL_LAKE_LEASE_LOST) when the lease was lost; a local lock is held until released. */
  assertHeld(): void;
  release(): Promise<void>;
}

export async function acquireRunLock(
  output: LakeStorage | string,
  owner: { runId: string; pipeline: string; now: Date },
  options: Omit<LeaseOptions, 'clock'> & { clock?: LeaseOptions['clock'] } = {},
): Promise<RunLock> {
  if (typeof output === 'string' || isLocalLake(output)) {
    const lock = await acquireOutputLock(typeof output === 'string' ? output : output.root, owner);
    return { path: lock.path, enforced: true, assertHeld: () => undefined, release: () => lock.release() };
  }
  const lease = await acquireLakeLease(output, owner, { ...options, clock: options.clock ?? { now: () => Date.now() } });
  return { path: lease.path, enforced: lease.enforced, assertHeld: () => lease.assertHeld(), release: () => lease.release() };
}
