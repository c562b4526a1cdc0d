/**
 * A Redis that answers and refuses: a password missing or wrong, a user without the right, a
 * database the server does not have; or another service that answers there, not in Redis's protocol. Running again changes nothing, so these are usage errors
 * (exit 2) naming the setting, never "unreachable". ioredis sends the URL's SELECT itself as it
 * connects and, when the server refuses it, only emits an error and goes on in database 0: one
 * environment's queue and plan would then share another's, so the database is selected again, and
 * checked, before anything is read or written.
 */
import type { Redis } from 'ioredis';
import { EnvironmentError } from '../../core/errors.js';

export const COORDINATOR_REFUSED = 'QL_COORDINATOR_REFUSED';

/** A Redis message, short and without any URL in it (one may hold a password). */
export function redisReason(message: string): string {
  // ioredis' "Please report this." after a reply it cannot parse would send the user to report a bug.
  return message.replace(/redis(s)?:\/\/\S+/gi, 'redis').replace(/\s*Please report this\.?/, '').slice(0, 200);
}

/**
 * Why a command failed, short: a Node code (ECONNREFUSED) as such, and ioredis' "Connection is
 * closed" (and its kin) as `not connected`, which says less than the connection's last error.
 */
export function failureReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (/enableOfflineQueue|Stream isn't writeable|Connection is closed/i.test(message)) return 'not connected';
  if (/timed? ?out/i.test(message)) return 'no answer in time';
  return redisReason(message);
}

/** The command's reason, or the connection's own last error where the command's says no more than "not connected". */
export function reasonBeside(error: unknown, lastError: string): string {
  const reason = failureReason(error);
  return (reason === '' || reason === 'not connected') && lastError !== '' ? lastError : reason || 'not connected';
}

/** Selects the URL's database explicitly (its refusal is then an error, not an event). */
export async function confirmDatabase(redis: Redis): Promise<void> {
  const db = redis.options.db ?? 0;
  if (db > 0) await redis.select(db);
}

/** The refusal as a usage error, or undefined when `error` is not one (a lost connection...). */
export function coordinatorRefusal(target: string, db: number, error: unknown): EnvironmentError | undefined {
  const message = typeof (error as { message?: unknown })?.message === 'string' ? (error as Error).message : '';
  const said = redisReason(message);
  const refused = (what: string, fix: string) => new EnvironmentError(COORDINATOR_REFUSED, `the coordinator ${target} refused: ${what} (${said})`, target, fix, { stage: 'plan', cause: error });
  if (/^NOAUTH\b/.test(message)) return refused('it needs a password', 'give it in the URL: redis://:PASSWORD@HOST:6379 (redis://USER:PASSWORD@… for an ACL user)');
  if (/^WRONGPASS\b/.test(message)) return refused('the password (or user) is wrong', 'check the password in --coordinator / QUOTELAKE_REDIS_URL (redis://:PASSWORD@HOST:6379)');
  if (/^NOPERM\b/.test(message)) return refused('the user may not run what the queue and the shared limiter need', 'give the user the commands and keys quotelake uses, or use another user');
  if (/DB index is out of range/i.test(message)) return refused(`it has no database ${db}`, 'give a database number the server has (0 to 15 unless redis.conf sets `databases`)');
  // Another service on that port (a web server, the emulator): it answers, not in Redis's protocol.
  if (/^Protocol error\b/.test(message)) {
    return new EnvironmentError(COORDINATOR_REFUSED, `the coordinator ${target} is not a Redis server: what answers there does not speak Redis's protocol (${said})`, target, 'check the host and port in --coordinator / QUOTELAKE_REDIS_URL: they name another service (Redis listens on 6379 unless configured otherwise)', { stage: 'plan', cause: error });
  }
  return undefined;
}
