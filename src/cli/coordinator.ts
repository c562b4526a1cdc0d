/**
 * `--coordinator` / QUOTELAKE_REDIS_URL: which Redis shares the plan between processes, checked
 * before anything runs (connectRedisCoordinator then connects: ioredis loads only when one is named).
 */
import { redisUrlProblem } from '../core/redis-url.js';
import { UsageError } from './usage-error.js';
import type { CoordinatorArgs } from './shared-options.js';

/** The Redis URL from the flag, else the environment, else undefined. An empty flag or a URL that is not redis:// is a usage error. */
export function coordinatorUrlOf(args: CoordinatorArgs, env: NodeJS.ProcessEnv): string | undefined {
  const flag = args.coordinator?.trim();
  // `--coordinator "$REDIS_URL"` with the variable unset: running unshared would exceed the plan
  // beside the other processes, with nothing said (as `--token ''` is refused).
  if (flag === '') throw new UsageError('--coordinator is empty', 'give the Redis every process on the token shares (redis://HOST:6379/DB), or leave the flag out to run without sharing');
  const text = flag !== undefined ? flag : env.QUOTELAKE_REDIS_URL?.trim() || undefined;
  if (text === undefined) return undefined;
  const from = flag ? '--coordinator' : 'QUOTELAKE_REDIS_URL';
  const problem = redisUrlProblem(text);
  if (problem !== undefined) throw new UsageError(`${from}${problem}`);
  return text;
}

