/**
 * `--clock` / QUOTELAKE_CLOCK: the instant a command takes as "now". Time then runs on from it at
 * the machine's pace, so a run is reproducible on any day (what "3 days back" covers, which
 * sessions traded, which quota day it is) while rate limits and timeouts stay real.
 */
import { shiftedClock, systemClock, type Clock } from '../core/clock.js';
import { isoUtcMs } from '../core/iso-calendar.js';
import { UsageError } from './usage-error.js';

/** Milliseconds of an ISO instant with a date and a time that exist, or a UsageError naming where it came from. */
export function parseInstant(given: string, from: string): number {
  const text = given.trim();
  // A time is required (a clock names an instant, not a day); without an offset it is UTC.
  const ms = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(text) ? isoUtcMs(text) : Number.NaN;
  if (!Number.isFinite(ms)) throw new UsageError(`${from} must be an ISO instant such as 2026-03-04T15:00:00Z (UTC unless it names an offset), got "${given}"`);
  return ms;
}

export function commandClock(flag: string | undefined, env: NodeJS.ProcessEnv): Clock {
  if (flag !== undefined) return shiftedClock(parseInstant(flag, '--clock'));
  // Empty (or blank) is unset, as for every QUOTELAKE_ variable.
  const fromEnv = env.QUOTELAKE_CLOCK;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return shiftedClock(parseInstant(fromEnv, 'QUOTELAKE_CLOCK'));
  return systemClock;
}
