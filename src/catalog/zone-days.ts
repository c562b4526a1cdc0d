/**
 * Calendar days of an IANA zone as UTC ranges, memoised: the session calendars and the bar grid
 * (W12) both walk days, and luxon is too slow to call per bar.
 */
import { DateTime } from 'luxon';

const DAY_MS = 86_400_000;

/** One calendar day of a zone. `day` counts days since 1970-01-01 on the local calendar. */
export interface ZoneDay {
  readonly day: number;
  readonly year: number;
  /** 1..12 */
  readonly month: number;
  /** 1..31 */
  readonly dayOfMonth: number;
  /** 1 = Monday .. 7 = Sunday */
  readonly weekday: number;
  /** UTC ms of local 00:00 (inclusive). */
  readonly startMs: number;
  /** UTC ms of the next local 00:00 (exclusive); 23 or 25 hours after start on DST days. */
  readonly endMs: number;
}

const MAX_DAYS_PER_ZONE = 100_000;
const cache = new Map<string, Map<number, ZoneDay>>();

/** Day number (days since 1970-01-01) of a calendar date. */
export function dayNumber(year: number, month: number, dayOfMonth: number): number {
  return Math.round(Date.UTC(year, month - 1, dayOfMonth) / DAY_MS);
}

/** Day number of a `YYYY-MM-DD` text; throws RangeError when it is not a real date. */
export function dayNumberOfIsoDate(iso: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${iso}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const n = dayNumber(y, mo, d);
  const back = new Date(n * DAY_MS);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) throw new RangeError(`not a real date: ${iso}`);
  return n;
}

/** UTC ms of a local wall-clock time `minuteOfDay` minutes after 00:00 on local day `day`. */
export function localToUtcMs(zone: string, day: number, minuteOfDay: number): number {
  if (zone === 'UTC') return day * DAY_MS + minuteOfDay * 60_000;
  const d = new Date(day * DAY_MS);
  const dt = DateTime.fromObject(
    {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: Math.floor(minuteOfDay / 60),
      minute: minuteOfDay % 60,
    },
    { zone },
  );
  if (!dt.isValid) throw new RangeError(`invalid zone or time: ${zone} day ${day} minute ${minuteOfDay}`);
  return dt.toMillis();
}

/** The calendar day `day` of `zone`. */
export function zoneDay(zone: string, day: number): ZoneDay {
  let byDay = cache.get(zone);
  if (byDay === undefined) {
    byDay = new Map();
    cache.set(zone, byDay);
  }
  const hit = byDay.get(day);
  if (hit !== undefined) return hit;
  if (byDay.size >= MAX_DAYS_PER_ZONE) byDay.clear();
  const d = new Date(day * DAY_MS);
  const weekdaySun0 = d.getUTCDay();
  const startMs = localToUtcMs(zone, day, 0);
  const endMs = localToUtcMs(zone, day + 1, 0);
  const zd: ZoneDay = {
    day,
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    dayOfMonth: d.getUTCDate(),
    weekday: weekdaySun0 === 0 ? 7 : weekdaySun0,
    startMs,
    endMs,
  };
  byDay.set(day, zd);
  return zd;
}

/** The local day of `zone` that contains the instant `ms`. */
export function zoneDayAt(zone: string, ms: number): ZoneDay {
  if (!Number.isFinite(ms)) throw new RangeError(`not an instant: ${ms}`);
  let zd = zoneDay(zone, Math.floor(ms / DAY_MS));
  // Offsets are under a day, so at most one step either way.
  while (ms < zd.startMs) zd = zoneDay(zone, zd.day - 1);
  while (ms >= zd.endMs) zd = zoneDay(zone, zd.day + 1);
  return zd;
}
