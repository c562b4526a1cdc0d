/**
 * Exchange-local wall-clock text → UTC instant, with a fixed rule for daylight-saving edges:
 * - a local time that does not exist (spring-forward gap, e.g. 02:30 on a US change day) is read
 *   with the offset in force BEFORE the transition, i.e. shifted forward by the gap
 *   (02:30 → 03:30 EDT = 07:30Z); this is also luxon's default;
 * - a local time that exists twice (autumn overlap, e.g. 01:30 on the US November change day)
 *   takes the EARLIER instant, i.e. the daylight-saving offset (01:30 EDT = 05:30Z); luxon's default
 *   would take the later one, so both candidates are checked here explicitly.
 */
import { DateTime, IANAZone } from 'luxon';
import { fieldFailure, quoteValue, type FieldFailure } from '../../core/field-failure.js';
import { TIME_MALFORMED } from '../../core/time.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const DAY_MS = 86_400_000;

function wallClockMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  // luxon validates the calendar (no 2024-02-30, no hour 24).
  const dt = DateTime.utc(y, mo, d, h, mi, s);
  return dt.isValid ? dt.toMillis() : undefined;
}

export function zoneOrThrow(name: string): IANAZone {
  const zone = IANAZone.create(name);
  if (!zone.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(name)}`);
  return zone;
}

/** Resolve a wall-clock time (given as if it were UTC millis) in `zone` by the rule above. */
export function resolveLocal(localMs: number, zone: IANAZone): number {
  const before = zone.offset(localMs - DAY_MS);
  const after = zone.offset(localMs + DAY_MS);
  let best: number | undefined;
  for (const offset of before === after ? [before] : [before, after]) {
    const instant = localMs - offset * 60_000;
    if (zone.offset(instant) === offset && (best === undefined || instant < best)) best = instant;
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
  return resolveLocal(local, zone);
}

export function isLocalDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && wallClockMs(+m[1]!, +m[2]!, +m[3]!, 0, 0, 0) !== undefined;
}

export function isLocalTime(text: string): boolean {
  const m = TIME.exec(text);
  return m !== null && wallClockMs(2000, 1, 1, +m[1]!, +m[2]!, +m[3]!) !== undefined;
}
