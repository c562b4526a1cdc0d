import { DateTime } from 'luxon';

/**
 * Exchange-local wall-clock time: a calendar day (days since 1970-01-01, no zone) and the
 * seconds since its midnight. Records are written from these parts, never from an instant, so a
 * wall time that does not exist (inside a DST gap) or exists twice (a DST overlap) can still be
 * written exactly as an exchange would print it.
 */
export interface Wall {
  readonly day: number;
  readonly sec: number;
}

export const DAY_MS = 86_400_000;
const DAY_SEC = 86_400;

/** ISO weekday, 1 = Monday .. 7 = Sunday (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

export function isWeekday(day: number): boolean {
  return isoWeekday(day) <= 5;
}

/** The n-th weekday after `day` (n >= 1). Exchange holidays are not modelled. */
export function nextWeekday(day: number, n = 1): number {
  let d = day;
  for (let left = n; left > 0; ) {
    d += 1;
    if (isWeekday(d)) left -= 1;
  }
  return d;
}

export function prevWeekday(day: number): number {
  let d = day - 1;
  while (!isWeekday(d)) d -= 1;
  return d;
}

export function at(day: number, hh: number, mm: number, ss = 0): Wall {
  return { day, sec: hh * 3600 + mm * 60 + ss };
}

/** Adds seconds, carrying into the following or previous calendar days. */
export function addSec(w: Wall, seconds: number): Wall {
  const total = w.sec + seconds;
  const carry = Math.floor(total / DAY_SEC);
  return { day: w.day + carry, sec: total - carry * DAY_SEC };
}

export function compareWall(a: Wall, b: Wall): number {
  return a.day !== b.day ? a.day - b.day : a.sec - b.sec;
}

/** `yyyy-MM-dd` */
export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `HH:mm:ss` */
export function formatTime(sec: number): string {
  const hh = Math.floor(sec / 3600);
  const mm = Math.floor((sec % 3600) / 60);
  const ss = sec % 60;
  return `${pad2(hh)}:${pad2(mm)}:${pad2(ss)}`;
}

/** `yyyy-MM-dd HH:mm:ss` (spec 2.4) */
export function formatWall(w: Wall): string {
  return `${formatDay(w.day)} ${formatTime(w.sec)}`;
}

/** The calendar day, in `zone`, of an instant. */
export function localDay(zone: string, ms: number): number {
  const local = DateTime.fromMillis(ms, { zone });
  return Math.round(Date.UTC(local.year, local.month - 1, local.day) / DAY_MS);
}

/** UTC offset (minutes) of `zone` at noon of `day`, cached: it is asked for on every record. */
const noonOffsets = new Map<string, number>();
export function noonOffsetMinutes(zone: string, day: number): number {
  const key = `${zone}|${day}`;
  const hit = noonOffsets.get(key);
  if (hit !== undefined) return hit;
  const offset = DateTime.fromMillis(day * DAY_MS + 12 * 3_600_000, { zone: 'utc' })
    .setZone(zone, { keepLocalTime: true }).offset;
  if (noonOffsets.size >= 20_000) noonOffsets.clear(); // bound: a long-lived emulator moves on
  noonOffsets.set(key, offset);
  return offset;
}

/**
 * The instant of a wall time. From 04:00 on, a day's offset is its noon offset (US changes happen
 * at 02:00 and Shanghai has none), which keeps the common path cheap. Earlier times go through
 * luxon, which moves a time inside a spring-forward gap forward by the gap (02:30 becomes 03:30
 * daylight time) and reads an overlapped time with luxon's choice of offset.
 */
export function wallToMs(zone: string, w: Wall): number {
  if (w.sec >= 4 * 3600) {
    return w.day * DAY_MS + w.sec * 1000 - noonOffsetMinutes(zone, w.day) * 60_000;
  }
  const d = new Date(w.day * DAY_MS);
  return DateTime.fromObject(
    {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: Math.floor(w.sec / 3600),
      minute: Math.floor((w.sec % 3600) / 60),
      second: w.sec % 60,
    },
    { zone },
  ).toMillis();
}

/** +1 on a spring-forward day, -1 on a fall-back day, 0 otherwise. */
export function dstChange(zone: string, day: number): -1 | 0 | 1 {
  const before = noonOffsetMinutes(zone, day - 1);
  const after = noonOffsetMinutes(zone, day);
  return after > before ? 1 : after < before ? -1 : 0;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
