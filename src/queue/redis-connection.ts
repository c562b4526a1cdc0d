/**
 * The queue's Redis connection. BullMQ's workers block on Redis and require
 * `maxRetriesPerRequest: null`; a queue that only adds and counts fails fast instead, so a command
 * given a wrong URL says so rather than waiting for ever.
 */
import { Redis } from 'ioredis';

export function redisConnection(url: string, role: 'worker' | 'client', options: { commandTimeoutMs?: number } = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    // A client command gives up on an unreachable server instead of retrying in the background.
    ...(role === 'client' ? { retryStrategy: () => null, connectTimeout: 5000 } : {}),
    ...(options.commandTimeoutMs !== undefined ? { commandTimeout: options.commandTimeoutMs } : {}),
    lazyConnect: false,
  });
}
