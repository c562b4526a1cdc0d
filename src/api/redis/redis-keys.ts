/**
 * Where the shared limiter keeps one token's state in Redis. Every key carries the token's hash
 * (tokenHash16), never the token, in a hash tag `{…}` so a Redis Cluster keeps one token's keys in
 * one slot (a Lua script may only touch keys of one slot).
 */
export const KEY_PREFIX = 'quotelake:';

export interface TokenKeys {
  /** The restart guard's instant (see redis-scripts.ts). */
  readonly epoch: string;
  /** The day's counts: `used`, `unknown`, `limit`, `zone`, `resetAt`, and `p:<process>` per process. */
  day(day: string): string;
  /** Release stamps of one window rule (a sorted set). */
  stamps(rule: string): string;
  /** Admitted, unreleased permits of one window rule, scored by the end of their lease. */
  flight(rule: string): string;
  /** Pub/sub channel: a permit of this token was released (its waiters everywhere ask again). */
  readonly released: string;
}

export function tokenKeys(tokenHash: string): TokenKeys {
  const base = `${KEY_PREFIX}{${tokenHash}}`;
  return {
    epoch: `${base}:epoch`,
    day: (day) => `${base}:day:${day}`,
    stamps: (rule) => `${base}:w:${rule}`,
    flight: (rule) => `${base}:f:${rule}`,
    released: `${base}:released`,
  };
}

/** Matches every token's day keys (for `quotelake quota`). */
export const DAY_KEY_PATTERN = `${KEY_PREFIX}{*}:day:*`;

/** The token hash and day of a day key, or undefined. */
export function parseDayKey(key: string): { tokenHash: string; day: string } | undefined {
  const m = /^quotelake:\{([0-9a-f]{16})\}:day:(\d{4}-\d{2}-\d{2})$/.exec(key);
  return m ? { tokenHash: m[1]!, day: m[2]! } : undefined;
}
