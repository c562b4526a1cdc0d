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

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * DAY_MS;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Raw offsets at multiples of a step, per zone and step. */
const boundaryOffsets = new Map<string, Map<number, number>>();
const MAX_BOUNDARIES = 200_000;

/**
 * UTC offset (ms, local minus UTC) of `zone` at `ms`. Intl costs microseconds per call, so offsets
 * are read at week boundaries and refined to days and then hours only where they differ: correct for
 * zones that change offset on whole hours and at most once per day (all zones used here).
 */
export function zoneOffsetMs(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  const w = Math.floor(ms / WEEK_MS);
  const w0 = boundaryOffset(zone, WEEK_MS, w);
  if (w0 === boundaryOffset(zone, WEEK_MS, w + 1)) return w0;
  const d = Math.floor(ms / DAY_MS);
  const d0 = boundaryOffset(zone, DAY_MS, d);
  if (d0 === boundaryOffset(zone, DAY_MS, d + 1)) return d0;
  return boundaryOffset(zone, HOUR_MS, Math.floor(ms / HOUR_MS));
}

function boundaryOffset(zone: string, step: number, index: number): number {
  const key = `${zone}|${step}`;
  let cache = boundaryOffsets.get(key);
  if (cache === undefined) {
    cache = new Map();
    boundaryOffsets.set(key, cache);
  }
  const hit = cache.get(index);
  if (hit !== undefined) return hit;
  if (cache.size >= MAX_BOUNDARIES) cache.clear();
  const off = rawOffset(zone, index * step);
  cache.set(index, off);
  return off;
}

function rawOffset(zone: string, at: number): number {
  let dtf = formatters.get(zone);
  if (dtf === undefined) {
    // Throws RangeError for an unknown zone.
    dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, dtf);
  }
  const f: Record<string, string> = {};
  for (const p of dtf.formatToParts(new Date(at))) f[p.type] = p.value;
  let year = Number(f.year);
  if (f.era === 'BC' || f.era === 'B') year = 1 - year;
  const asUtc = Date.UTC(year, Number(f.month) - 1, Number(f.day), Number(f.hour), Number(f.minute), Number(f.second));
  return asUtc - at;
}

/**
 * UTC ms of a local wall-clock time `minuteOfDay` minutes after 00:00 on local day `day`. A time the
 * autumn change repeats is its earlier instant (daylight time), a time the spring change skips moves
 * forward by the gap: the rule halt times follow too (README).
 */
export function localToUtcMs(zone: string, day: number, minuteOfDay: number): number {
  const local = day * DAY_MS + minuteOfDay * 60_000;
  if (zone === 'UTC') return local;
  const o1 = zoneOffsetMs(zone, local - zoneOffsetMs(zone, local));
  const utc = local - o1;
  if (zoneOffsetMs(zone, utc) === o1) {
    // A repeated wall time may also be read with the offset in force before the change (no DST
    // shift is anywhere near 3 hours): that reading is the earlier instant, and the rule's.
    const before = zoneOffsetMs(zone, utc - 3 * 3_600_000);
    const earlier = local - before;
    return before !== o1 && earlier < utc && zoneOffsetMs(zone, earlier) === before ? earlier : utc;
  }
  // A wall time inside a DST gap: follow luxon (moves it forward), rare and off the hot path.
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
