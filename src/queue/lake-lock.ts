/**
 * One committer per lake at a time, across every worker on every host: a Redis lock around a
 * slice's commit. Partition-aligned slices never share a partition of one series, but the kline
 * dataset's partitions hold every code (`interval=1m/year=…/date=…`) and each dataset has one
 * manifest, so two commits to one lake always touch shared files: the lake's own output lock
 * guards one host's folder, this guards the lake for all hosts (an S3 lake has no folder lock).
 *
 * The lock expires unless renewed, so a SIGKILLed holder blocks the others for at most `ttlMs`;
 * release and renewal act only while the lock still holds this holder's token.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AbortedError } from '../core/errors.js';

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

export interface LakeLockOptions {
  readonly ttlMs?: number;
  /** How often a waiting worker tries again. */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
}

/** Runs `work` holding the lock of `lakeKey` (waiting for it); the lock is renewed while work runs. */
export async function withLakeLock<T>(redis: Redis, lakeKey: string, work: () => Promise<T>, options: LakeLockOptions = {}): Promise<T> {
  const ttlMs = options.ttlMs ?? 30_000;
  const pollMs = options.pollMs ?? 100;
  const key = `quotelake:lake-lock:${lakeKey}`;
  const token = randomBytes(16).toString('hex');
  for (;;) {
    if (options.signal?.aborted) throw new AbortedError();
    if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK') break;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  const renew = setInterval(() => void redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => undefined), Math.floor(ttlMs / 3));
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
}
