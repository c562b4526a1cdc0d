/**
 * Exchange-local wall-clock text → UTC instant, with a fixed rule for daylight-saving edges:
 * - a local time that does not exist (spring-forward gap, e.g. 02:30 on a US change day) is read
 *   with the offset in force BEFORE the transition, i.e. shifted forward by the gap
 *   (02:30 → 03:30 EDT = 07:30Z); this is also luxon's default;
 * - a local time that exists twice (autumn overlap, e.g. 01:30 on the US November change day)
 *   takes the EARLIER instant, i.e. the daylight-saving offset (01:30 EDT = 05:30Z); luxon's default
 *   would take the later one, so both candidates are checked here explicitly.
 */
import { IANAZone } from 'luxon';
import { fieldFailure, quoteValue, type FieldFailure } from '../../core/field-failure.js';
import { MAX_EPOCH_MS, TIME_MALFORMED } from '../../core/time.js';
import { zoneOffset } from './zone-offset.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DAY_MS = 86_400_000;

function wallClockMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  // A day out of its month rolls over into the next (2024-02-30 is March 1st): refused.
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return undefined;
  // As luxon read it: 24:00:00 is the end of the day (the next midnight), no other hour 24.
  if (mi > 59 || s > 59 || h > 24 || (h === 24 && (mi > 0 || s > 0))) return undefined;
  return at.setUTCHours(h, mi, s, 0);
}

export function zoneOrThrow(name: string): IANAZone {
  const zone = IANAZone.create(name);
  if (!zone.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(name)}`);
  return zone;
}

/** Resolve a wall-clock time (given as if it were UTC millis) in `zone` by the rule above. */
export function resolveLocal(localMs: number, zone: IANAZone): number {
  const before = zoneOffset(zone, localMs - DAY_MS);
  const after = zoneOffset(zone, localMs + DAY_MS);
  let best: number | undefined;
  for (const offset of before === after ? [before] : [before, after]) {
    const instant = localMs - offset * 60_000;
    if (zoneOffset(zone, instant) === offset && (best === undefined || instant < best)) best = instant;
  }
  return best ?? localMs - before * 60_000;
}

/** `yyyy-MM-dd HH:mm:ss` in `zone` → epoch ms. */
export function parseLocalDateTime(text: string, zone: IANAZone): number | FieldFailure {
  const m = DATE_TIME.exec(text);
  const local = m ? wallClockMs(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : undefined;
  if (local === undefined) {
    return fieldFailure(TIME_MALFORMED, `${quoteValue(text)} is not a local date-time yyyy-MM-dd HH:mm:ss`);
  }
  const at = resolveLocal(local, zone);
  // 9999-12-31 evening in New York is year 10000 in UTC: no TIMESTAMP column holds it.
  if (at > MAX_EPOCH_MS) return fieldFailure(TIME_MALFORMED, `${quoteValue(text)} is beyond year 9999 in UTC`);
  return at;
}

export function isLocalDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && wallClockMs(+m[1]!, +m[2]!, +m[3]!, 0, 0, 0) !== undefined;
}

export function isLocalTime(text: string): boolean {
  const m = TIME.exec(text);
  return m !== null && wallClockMs(2000, 1, 1, +m[1]!, +m[2]!, +m[3]!) !== undefined;
}
