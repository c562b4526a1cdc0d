/**
 * A Redis that shares one plan (its windows and its daily count) between processes and hosts, for
 * `createClient({ coordinator })`: what `--coordinator redis://…` gives the command line. ioredis
 * loads at this call, never at import, so a program without Redis does not pay for it.
 */
import { ConfigError } from '../core/errors.js';
import { redisUrlProblem } from '../core/redis-url.js';
import type { RedisCoordinator } from './redis/index.js';

/** Connects and checks Redis (`redis://` or `rediss://`, database after the port): CoordinatorDownError when it does not answer. */
export async function connectRedisCoordinator(url: string): Promise<RedisCoordinator> {
  const problem = redisUrlProblem(url);
  if (problem !== undefined) throw new ConfigError(`coordinator${problem}`, {}, undefined, 'give one such as redis://127.0.0.1:6379/0');
  const { RedisCoordinator } = await import('./redis/index.js');
  return RedisCoordinator.connect(url);
}
