/**
 * `--coordinator` / QUOTELAKE_REDIS_URL: which Redis shares the plan between processes, checked
 * before anything runs. The Redis module is loaded only when one is named: without it nothing changes.
 */
import type { RedisCoordinator } from '../api/redis/index.js';
import { redactUrl } from '../core/redact.js';
import { UsageError } from './usage-error.js';
import type { CoordinatorArgs } from './shared-options.js';

/** The Redis URL from the flag, else the environment, else undefined. A URL that is not redis:// is a usage error. */
export function coordinatorUrlOf(args: CoordinatorArgs, env: NodeJS.ProcessEnv): string | undefined {
  const flag = args.coordinator?.trim();
  const text = flag !== undefined && flag !== '' ? flag : env.QUOTELAKE_REDIS_URL?.trim() || undefined;
  if (text === undefined) return undefined;
  const from = flag ? '--coordinator' : 'QUOTELAKE_REDIS_URL';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${from} must be a URL such as redis://127.0.0.1:6379/0, got "${redactUrl(text)}"`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new UsageError(`${from} must be a redis:// (or rediss://) URL, got "${url.protocol}//…"`);
  }
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new UsageError(`${from}: the database after the port must be a number, got "${db}"`);
  return text;
}

/** Connects to it, or fails (CoordinatorDownError, exit 1) before the first request. */
export async function openCoordinator(url: string): Promise<RedisCoordinator> {
  const redis = await import('../api/redis/index.js');
  return redis.RedisCoordinator.connect(url);
}
