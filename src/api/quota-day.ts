/**
 * The quota day at an instant: its date in the quota zone (L4) and the next midnight there. The
 * same rule as QuotaStore.dayOf, for counts kept elsewhere than its file (the shared Redis count).
 * Luxon only when the day changes: this runs before every request.
 */
import { DateTime } from 'luxon';
import { ConfigError } from '../core/errors.js';
import { zoneGuess } from '../core/iana-zone.js';

/** The quota zone's one check, for this class and QuotaStore: a zone Luxon can place a day in. */
export function checkQuotaTimeZone(timeZone: string): void {
  if (!DateTime.now().setZone(timeZone).isValid) throw new ConfigError(`invalid quotaTimeZone "${timeZone}"${zoneGuess(timeZone)}`, {}, undefined, 'give an IANA time zone name, such as UTC or Asia/Shanghai');
}

export class QuotaDay {
  private cache: { day: string; startMs: number; resetMs: number } | undefined;

  constructor(readonly timeZone: string) {
    checkQuotaTimeZone(timeZone);
  }

  at(ms: number): { day: string; resetAt: Date } {
    const cached = this.cache;
    if (cached && ms >= cached.startMs && ms < cached.resetMs) return { day: cached.day, resetAt: new Date(cached.resetMs) };
    const local = DateTime.fromMillis(ms, { zone: this.timeZone });
    const start = local.startOf('day');
    const resetMs = start.plus({ days: 1 }).toMillis();
    this.cache = { day: local.toISODate() ?? '', startMs: start.toMillis(), resetMs };
    return { day: this.cache.day, resetAt: new Date(resetMs) };
  }
}
