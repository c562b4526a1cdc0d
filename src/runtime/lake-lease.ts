/**
 * One writer per lake on an object store: a lease object `_quotelake/lock`. A run's recovery deletes
 * staging and unlisted files, which would destroy a concurrent run's work, and an object store has no
 * pid to check and no link(): so the holder writes a lease with an expiry and renews it (heartbeat).
 *
 * - Take: create the lease with putIfAbsent (S3: If-None-Match: *). An existing lease that has
 *   expired (or was released) is taken over by a conditional replace of exactly the version that was
 *   read (S3: If-Match on its ETag), so of two contenders only one wins.
 * - Renew: every `renewEveryMs` the holder replaces its own version (If-Match). When the lease is no
 *   longer its own (a contender took over after it expired: the holder was paused or cut off longer
 *   than the lease), the holder learns it at that heartbeat and the run stops before its next commit.
 * - Release: a conditional delete of its own version, so it never removes a successor's lease.
 *
 * A holder that dies simply stops renewing: the next run waits until the lease expires (at most
 * `leaseMs` after the last renewal) and takes it over; no manual fix. Expiry is judged on the
 * contender's clock against the holder's written `expiresAt`, so hosts' clocks must agree to well
 * within the lease (NTP).
 *
 * A store that ignores conditional writes (s3rver; old MinIO or Ceph releases) cannot enforce any of
 * this: `conditionalCreateHolds` finds it out, the lease is still taken (a run that starts while
 * another holds a live lease is refused by the read before the write), but two runs that start in
 * the same instant could both win. The lease says `enforced: false` and the caller warns.
 */
import { hostname } from 'node:os';
import { QuotelakeError } from '../core/errors.js';
import { processAlive } from '../core/process-alive.js';
import { conditionalCreateHolds } from '../lake/storage/conditional-create-probe.js';
import { conditionalWritesOf, type VersionedObject } from '../lake/storage/conditional-writes.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { LAKE_DIR } from '../lake/lake-paths.js';
import { safeFileToken } from '../lake/partition-path.js';

export const LEASE_KEY = `${LAKE_DIR}/lock`;
export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_RENEW_EVERY_MS = 10_000;
/** Contended rounds before giving up; each needs another writer to win in between. */
const MAX_ROUNDS = 20;

export interface LeaseRecord {
  readonly version: 1;
  readonly runId: string;
  readonly pipeline: string;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: string;
  readonly renewedAt: string;
  /** Epoch ms as ISO text: after this instant anyone may take the lease over. */
  readonly expiresAt: string;
}

export interface LeaseOptions {
  readonly clock: { now(): number };
  readonly leaseMs?: number;
  readonly renewEveryMs?: number;
  readonly host?: string;
  readonly pid?: number;
  /** The probe's answer when the caller already has it; otherwise the lease probes once. */
  readonly enforced?: boolean;
  /** Called once when a renewal finds the lease lost: the caller stops its run. */
  readonly onLost?: (error: QuotelakeError) => void;
  /** The heartbeat's timer (tests drive renew() themselves and pass a timer that never fires). */
  readonly every?: (ms: number, tick: () => void) => () => void;
}

export interface LakeLease {
  readonly key: string;
  /** Where the lease is, for messages (an s3:// URL). */
  readonly path: string;
  /** False on a store that ignores conditional writes: exclusion is not enforced there. */
  readonly enforced: boolean;
  record(): LeaseRecord;
  /** Renew now (the heartbeat calls it); marks the lease lost and throws when it is not ours any more. */
  renew(): Promise<void>;
  /** Throws QL_LAKE_LEASE_LOST when the lease was lost or ran out unrenewed: checked before each commit. */
  assertHeld(): void;
  release(): Promise<void>;
}

const realTimer = (ms: number, tick: () => void): (() => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

function parse(data: Uint8Array): Partial<LeaseRecord> {
  try {
    const value: unknown = JSON.parse(Buffer.from(data).toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Partial<LeaseRecord>) : {};
  } catch {
    return {};
  }
}

const text = (record: LeaseRecord): string => `${JSON.stringify(record, null, 2)}\n`;
const same = (a: Partial<LeaseRecord>, b: LeaseRecord): boolean => a.runId === b.runId && a.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt;
const sameBytes = (a: Uint8Array, b: string): boolean => Buffer.from(a).equals(Buffer.from(b, 'utf8'));

/** `ranOut`: the lease expired unrenewed (the store did not answer), which says nothing of another run. */
function lostError(path: string, ours: LeaseRecord, holder: Partial<LeaseRecord> | undefined, cause?: unknown, ranOut = false): QuotelakeError {
  const who = ranOut
    ? `it ran out at ${ours.expiresAt} without a renewal (the store did not answer them)`
    : holder === undefined
      ? 'it is gone'
      : `run ${holder.runId ?? '?'} (pid ${holder.pid ?? '?'} on ${holder.host ?? '?'}) holds it now`;
  return new QuotelakeError('QL_LAKE_LEASE_LOST', `run ${ours.runId} lost the lease ${path}: ${who}; it stops before its next commit`, { stage: 'commit', ...(cause === undefined ? {} : { cause }) });
}

/**
 * Whether the holder in `current` still holds it at `now`. An unreadable lease (not our JSON) counts
 * as held until `leaseMs` after it was written, so a foreign object is never taken at once.
 */
async function heldAt(storage: LakeStorage, holder: Partial<LeaseRecord>, now: number, leaseMs: number): Promise<boolean> {
  const expires = typeof holder.expiresAt === 'string' ? Date.parse(holder.expiresAt) : Number.NaN;
  if (!Number.isNaN(expires)) return now < expires;
  const written = (await storage.modifiedAt?.(LEASE_KEY)) ?? now;
  return now < written + leaseMs;
}

export async function acquireLakeLease(storage: LakeStorage, owner: { runId: string; pipeline: string }, options: LeaseOptions): Promise<LakeLease> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? DEFAULT_RENEW_EVERY_MS;
  if (!(renewEveryMs > 0 && renewEveryMs * 2 <= leaseMs)) {
    throw new QuotelakeError('QL_LAKE_LEASE_CONFIG', `the lease (${leaseMs} ms) must last at least two renewals (${renewEveryMs} ms)`, { stage: 'plan' });
  }
  const cas = conditionalWritesOf(storage);
  const path = `${storage.root.replace(/\/+$/, '')}/${LEASE_KEY}`;
  const enforced = options.enforced ?? (await conditionalCreateHolds(storage, `lease-${safeFileToken(owner.runId)}`));
  const now = () => options.clock.now();
  const startedAt = new Date(now()).toISOString();
  const recordAt = (at: number): LeaseRecord => ({
    version: 1,
    runId: owner.runId,
    pipeline: owner.pipeline,
    host: options.host ?? hostname(),
    pid: options.pid ?? process.pid,
    startedAt,
    renewedAt: new Date(at).toISOString(),
    expiresAt: new Date(at + leaseMs).toISOString(),
  });

  let held: { record: LeaseRecord; version: string } | undefined;
  for (let round = 0; round < MAX_ROUNDS && held === undefined; round++) {
    const at = now();
    const mine = text(recordAt(at));
    const current = await cas.readVersioned(LEASE_KEY);
    let version: string | undefined;
    if (current === undefined) {
      if (!(await storage.putIfAbsent(LEASE_KEY, mine))) continue; // another run created it first
    } else {
      const holder = parse(current.data);
      if (same(holder, recordAt(at)) && typeof holder.expiresAt === 'string') {
        // Our own lease, written in an earlier round: the store took that write but its answer was
        // lost, and the SDK's retry of the conditional write was refused (412). It is ours.
        held = { record: holder as LeaseRecord, version: current.version };
        break;
      }
      if (await heldAt(storage, holder, at, leaseMs)) throw lockedError(path, holder, options.host ?? hostname(), leaseMs);
      version = await cas.replaceIf(LEASE_KEY, mine, current.version);
      if (version === undefined) continue; // another contender replaced it first: read again
    }
    // Read back: the version to renew from, and on a store that ignores conditions, who really won.
    const after: VersionedObject | undefined = await cas.readVersioned(LEASE_KEY);
    if (after === undefined || !sameBytes(after.data, mine)) {
      if (after !== undefined && (await heldAt(storage, parse(after.data), now(), leaseMs))) throw lockedError(path, parse(after.data), options.host ?? hostname(), leaseMs);
      continue;
    }
    held = { record: recordAt(at), version: after.version };
  }
  if (held === undefined) throw new QuotelakeError('QL_OUTPUT_LOCKED', `could not take the lease ${path}: other runs kept taking it`, { stage: 'plan' });

  let lost: QuotelakeError | undefined;
  let renewing: Promise<void> | undefined;
  const markLost = (error: QuotelakeError): QuotelakeError => {
    if (lost === undefined) {
      lost = error;
      stop();
      options.onLost?.(error);
    }
    return lost;
  };

  const renewOnce = async (): Promise<void> => {
    if (lost !== undefined) throw lost;
    const ours = held!;
    const at = now();
    const next = recordAt(at);
    let current: VersionedObject | undefined;
    try {
      current = await cas.readVersioned(LEASE_KEY);
      if (current === undefined || !same(parse(current.data), ours.record)) throw markLost(lostError(path, ours.record, current && parse(current.data)));
      const version = await cas.replaceIf(LEASE_KEY, text(next), ours.version);
      if (version !== undefined) {
        held = { record: next, version };
        return;
      }
      // Refused: another writer, or our own write that the SDK retried after a lost answer.
      const again = await cas.readVersioned(LEASE_KEY);
      if (again !== undefined && sameBytes(again.data, text(next))) {
        held = { record: next, version: again.version };
        return;
      }
      throw markLost(lostError(path, ours.record, again && parse(again.data)));
    } catch (error) {
      if (error === lost) throw error;
      // The store did not answer: keep trying at the next beat while the lease lasts.
      if (at >= Date.parse(ours.record.expiresAt)) throw markLost(lostError(path, ours.record, undefined, error, true));
      throw error;
    }
  };

  const renew = (): Promise<void> => {
    renewing ??= renewOnce().finally(() => {
      renewing = undefined;
    });
    return renewing;
  };

  const stop = (options.every ?? realTimer)(renewEveryMs, () => {
    // A failed beat is retried at the next one; a lost lease reached onLost already.
    renew().catch(() => undefined);
  });

  return {
    key: LEASE_KEY,
    path,
    enforced,
    record: () => held!.record,
    renew,
    assertHeld() {
      if (lost !== undefined) throw lost;
      if (now() >= Date.parse(held!.record.expiresAt)) throw markLost(lostError(path, held!.record, undefined, undefined, true));
    },
    async release() {
      stop();
      await renewing?.catch(() => undefined);
      if (lost !== undefined) return;
      const current = await cas.readVersioned(LEASE_KEY);
      // Only our own version goes: a successor's lease (we were too slow) is left alone.
      if (current !== undefined && same(parse(current.data), held!.record)) await cas.deleteIf(LEASE_KEY, current.version);
    },
  };
}

function lockedError(path: string, holder: Partial<LeaseRecord>, thisHost: string, leaseMs: number): QuotelakeError {
  // Unreadable, or not a lease record: "run ? of pipeline ? (pid ? on ?)" told nothing (heldAt says how long it holds).
  if (holder.runId === undefined && holder.pid === undefined && holder.host === undefined) {
    return new QuotelakeError(
      'QL_OUTPUT_LOCKED',
      `the lake's lease ${path} names no run (unreadable, or not a quotelake lease record): it counts as held for ${Math.round(leaseMs / 1000)} s after it was written, then the next run takes it over`,
      { stage: 'plan', hint: 'quotelake writes its lease whole, naming its run: check what else writes under this prefix (a copy, a sync, a hand edit), or delete the object if nothing does' },
    );
  }
  // A run that failed on a store it could no longer reach left its lease behind, and "running again
  // resumes" met this refusal. Its process being gone from this host is said, not acted on: a
  // container sharing the host name may run it in a process namespace of its own.
  const ended = holder.host === thisHost && typeof holder.pid === 'number' && !processAlive(holder.pid);
  return new QuotelakeError(
    'QL_OUTPUT_LOCKED',
    `the lake is in use by run ${holder.runId ?? '?'} of pipeline ${holder.pipeline ?? '?'} (pid ${holder.pid ?? '?'} on ${holder.host ?? '?'}), ` +
      `lease ${path} valid until ${holder.expiresAt ?? '?'}; ` +
      (ended
        ? `no process ${holder.pid} runs on this host, so that run has ended without releasing it: run again after ${holder.expiresAt ?? 'its expiry'}, when the next run takes it over`
        : 'if that run is gone, its lease expires then and the next run takes it over'),
    // "Another command is writing: wait for it to end" would contradict the message: nothing writes, nothing will end.
    ended
      ? { stage: 'plan', hint: `nothing is writing to this output now: run the same command again after ${holder.expiresAt ?? 'the lease expires'}; it then takes the lease over and finishes or sweeps what the ended run left` }
      : { stage: 'plan' },
  );
}
