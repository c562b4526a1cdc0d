/**
 * A Redis that shares one plan (its windows and its daily count) between processes and hosts, for
 * `createClient({ coordinator })`: what `--coordinator redis://…` gives the command line. ioredis
 * loads at this call, never at import, so a program without Redis does not pay for it.
 */
import { ConfigError } from '../core/errors.js';
import { redisUrlProblem } from '../core/redis-url.js';
import type { RedisCoordinator } from './redis/index.js';
import type { CoordinatorWait } from './redis/redis-patience.js';

export interface CoordinatorOptions {
  /** Once connected, how long a request waits for a Redis that went away (a restart) before it fails as down; default 0 (the client's usual retries, about 8 s); Infinity: until it is back or stopWaiting. */
  patienceMs?: number;
  /** Told when such a wait begins and when Redis answers again. */
  onWait?: (wait: CoordinatorWait) => void;
  /** Ends such waits at once (the program is stopping). */
  stopWaiting?: AbortSignal;
}

/** Connects and checks Redis (`redis://` or `rediss://`, database after the port): CoordinatorDownError when it does not answer. */
export async function connectRedisCoordinator(url: string, options: CoordinatorOptions = {}): Promise<RedisCoordinator> {
  const problem = redisUrlProblem(url);
  if (problem !== undefined) throw new ConfigError(`coordinator${problem}`, {}, undefined, 'give one such as redis://127.0.0.1:6379/0');
  const { RedisCoordinator } = await import('./redis/index.js');
  return RedisCoordinator.connect(url, options);
}
