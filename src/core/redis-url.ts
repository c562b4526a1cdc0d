/**
 * What is wrong with a Redis URL given for the coordinator, or undefined when it is usable. Said
 * after the name of where it came from (`--coordinator`, QUOTELAKE_REDIS_URL, a library option),
 * so the text starts with its own separator; a password in it is masked.
 */
import { redactUrl } from './redact.js';

export function redisUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return ` must be a URL such as redis://127.0.0.1:6379/0, got "${redactUrl(text)}"`;
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return ` must be a redis:// (or rediss://) URL, got "${url.protocol}//…"`;
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) return `: the database after the port must be a number, got "${db}"`;
  // ioredis would read a query as options, behind the path's database (`/0?db=3` is database 0) and
  // with a `?password=` printed unmasked in every message: only the documented parts are taken.
  if (url.search !== '') {
    return `: query parameters are not taken, got "${redactUrl(text)}": give the database after the port (redis://host:6379/3) and a password before the host (redis://:PASSWORD@host:6379)`;
  }
  return undefined;
}
