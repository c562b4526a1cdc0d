/**
 * --coordinator / QUOTELAKE_REDIS_URL: the Redis the queue lives on. The shared limiter and quota
 * (issue 17, point 1) read the same option and variable; the queue commands read it here so they
 * work on their own, and need it (a queue without Redis has nowhere to be).
 */
import { EnvironmentError } from '../../core/errors.js';
import { redactUrl } from '../../core/redact.js';
import { UsageError } from '../usage-error.js';
import { coordinatorUrlOf } from '../coordinator.js';
import { tlsMismatchHint } from '../tls-mismatch-hint.js';
import type { CoordinatorArgs } from '../shared-options.js';

export { coordinatorOption, type CoordinatorArgs } from '../shared-options.js';

/** The queue's Redis: the coordinator's URL (coordinator.ts checks it), which the queue commands need. */
export function coordinatorUrl(args: CoordinatorArgs, env: NodeJS.ProcessEnv): string {
  const url = coordinatorUrlOf(args, env);
  if (url === undefined) {
    throw new UsageError('the queue needs a Redis coordinator: none is set', 'give --coordinator redis://HOST:6379 or set QUOTELAKE_REDIS_URL');
  }
  return url;
}

/**
 * Fails fast, naming the coordinator, when Redis does not answer (or refuses: a password, a
 * database): without this a refused connection would read like a problem with the market-data service.
 */
export async function checkCoordinator(url: string): Promise<void> {
  // Loaded here, not at the top: every command's options import this file, and ioredis costs
  // ~0.05-0.09 CPU-s to load, which a run without the queue should not pay.
  const { redisConnection } = await import('../../queue/redis-connection.js');
  const { confirmDatabase, coordinatorRefusal, failureReason, reasonBeside } = await import('../../api/redis/redis-refusal.js');
  // A server that keeps the connection and answers nothing (frozen) would hold the command for ever.
  const probe = redisConnection(url, 'client', { commandTimeoutMs: 5000 });
  // The connection's own error (ECONNREFUSED) says more than the command's "Connection is closed".
  let lastError = '';
  probe.on('error', (e: unknown) => (lastError = failureReason(e)));
  try {
    await probe.ping();
    await confirmDatabase(probe);
  } catch (e) {
    // A refusal that closed the connection (AUTH, a reply not in Redis's protocol) is its last error.
    const db = probe.options.db ?? 0;
    const refused = coordinatorRefusal(redactUrl(url), db, e) ?? coordinatorRefusal(redactUrl(url), db, new Error(lastError));
    if (refused) throw refused;
    const message = `the coordinator ${redactUrl(url)} does not answer (${reasonBeside(e, lastError)})`;
    throw new EnvironmentError(
      'QL_COORDINATOR_UNREACHABLE',
      message,
      redactUrl(url),
      `start Redis there, or fix --coordinator / QUOTELAKE_REDIS_URL${tlsMismatchHint(message)}`,
      { stage: 'plan', cause: e },
    );
  } finally {
    probe.disconnect();
  }
}
