/**
 * Trading calendars. Each session is a list of local wall-clock windows per weekday in its own zone,
 * minus a small fixed-date holiday list, so "market closed" is deterministic and testable.
 * All instants are UTC ms; windows are half-open [start, end).
 */
import type { SessionName } from './types.js';
import { localToUtcMs, zoneDay, zoneDayAt, type ZoneDay } from './zone-days.js';

export interface SessionWindow {
  start: number;
  end: number;
}

interface SessionDef {
  readonly zone: string;
  /** Local windows in minutes after 00:00 for weekday 1 (Mon) .. 7 (Sun); index = weekday - 1. */
  readonly week: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /** Fixed holidays as `MM-DD` (no weekend observance shifts). */
  readonly holidays: ReadonlySet<string>;
}

const hm = (h: number, m = 0): number => h * 60 + m;
const weekdays = <T>(w: T, weekend: T): T[] => [w, w, w, w, w, weekend, weekend];

/**
 * Fixed-date holidays of the equity calendars: a documented simplification (real calendars add
 * moving feasts). US: New Year, Independence Day, Christmas. HK: New Year, Christmas, Boxing Day.
 * CN: New Year and the first three days of the National Day holiday.
 */
export const SESSION_HOLIDAYS: Readonly<Record<'us-equity' | 'hk-equity' | 'cn-equity', readonly string[]>> = {
  'us-equity': ['01-01', '07-04', '12-25'],
  'hk-equity': ['01-01', '12-25', '12-26'],
  'cn-equity': ['01-01', '10-01', '10-02', '10-03'],
};

const SESSIONS: Record<SessionName, SessionDef> = {
  'us-equity': {
    zone: 'America/New_York',
    week: weekdays([[hm(9, 30), hm(16)]], []),
    holidays: new Set(SESSION_HOLIDAYS['us-equity']),
  },
  'hk-equity': {
    zone: 'Asia/Hong_Kong',
    week: weekdays(
      [
        [hm(9, 30), hm(12)],
        [hm(13), hm(16)],
      ],
      [],
    ),
    holidays: new Set(SESSION_HOLIDAYS['hk-equity']),
  },
  'cn-equity': {
    zone: 'Asia/Shanghai',
    week: weekdays(
      [
        [hm(9, 30), hm(11, 30)],
        [hm(13), hm(15)],
      ],
      [],
    ),
    holidays: new Set(SESSION_HOLIDAYS['cn-equity']),
  },
  // Sunday 17:00 to Friday 17:00 New York, continuous.
  'fx-week': {
    zone: 'America/New_York',
    week: [
      [[0, 1440]],
      [[0, 1440]],
      [[0, 1440]],
      [[0, 1440]],
      [[0, hm(17)]],
      [],
      [[hm(17), 1440]],
    ],
    holidays: new Set(),
  },
  always: {
    zone: 'UTC',
    week: [[[0, 1440]], [[0, 1440]], [[0, 1440]], [[0, 1440]], [[0, 1440]], [[0, 1440]], [[0, 1440]]],
    holidays: new Set(),
  },
};

export const SESSION_NAMES: readonly SessionName[] = Object.keys(SESSIONS) as SessionName[];

/** The zone whose local days define a session's calendar. */
export function sessionZone(session: SessionName): string {
  return def(session).zone;
}

function def(session: SessionName): SessionDef {
  const d = SESSIONS[session];
  if (d === undefined) throw new RangeError(`unknown session: ${String(session)}`);
  return d;
}

const MAX_DAYS = 100_000;
const dayWindowCache = new Map<SessionName, Map<number, readonly SessionWindow[]>>();

/** Whether a local date of the session's zone is one of its fixed holidays. */
export function isHoliday(session: SessionName, zd: ZoneDay): boolean {
  const mmdd = `${String(zd.month).padStart(2, '0')}-${String(zd.dayOfMonth).padStart(2, '0')}`;
  return def(session).holidays.has(mmdd);
}

/** Trading windows (UTC ms) of one local day of the session's zone, ascending; never crossing midnight. */
export function dayWindows(session: SessionName, day: number): readonly SessionWindow[] {
  let byDay = dayWindowCache.get(session);
  if (byDay === undefined) {
    byDay = new Map();
    dayWindowCache.set(session, byDay);
  }
  const hit = byDay.get(day);
  if (hit !== undefined) return hit;
  if (byDay.size >= MAX_DAYS) byDay.clear();
  const d = def(session);
  const zd = zoneDay(d.zone, day);
  let out: SessionWindow[] = [];
  if (!isHoliday(session, zd)) {
    out = (d.week[zd.weekday - 1] ?? []).map(([a, b]) => ({
      start: a === 0 ? zd.startMs : localToUtcMs(d.zone, day, a),
      end: b === 1440 ? zd.endMs : localToUtcMs(d.zone, day, b),
    }));
  }
  const frozen = Object.freeze(out.map((w) => Object.freeze(w)));
  byDay.set(day, frozen);
  return frozen;
}

/** Whether the session trades at instant `ms`. */
export function isTrading(session: SessionName, ms: number): boolean {
  const zd = zoneDayAt(def(session).zone, ms);
  for (const w of dayWindows(session, zd.day)) if (ms >= w.start && ms < w.end) return true;
  return false;
}

/**
 * Trading windows that intersect [fromMs, toMs), clipped to it, ascending; windows that touch
 * (e.g. across midnight in the FX week) are merged.
 */
export function sessionWindows(session: SessionName, fromMs: number, toMs: number): SessionWindow[] {
  const out: SessionWindow[] = [];
  for (const w of windowsForward(session, fromMs, toMs)) {
    const prev = out[out.length - 1];
    if (prev !== undefined && prev.end === w.start) prev.end = w.end;
    else out.push(w);
  }
  return out;
}

/**
 * Trading windows from `fromMs` to before `toMs`, oldest first, clipped, per local day (not merged
 * across midnight): windowsBackward's order reversed. A caller that stops early (at the first
 * missing bar of a gap that runs for years) reads the days it needs, not every day of the range.
 */
export function* windowsForward(session: SessionName, fromMs: number, toMs: number): Generator<SessionWindow> {
  if (!(toMs > fromMs)) return;
  const zone = def(session).zone;
  const lastDay = zoneDayAt(zone, toMs - 1).day;
  for (let day = zoneDayAt(zone, fromMs).day; day <= lastDay; day++) {
    for (const w of dayWindows(session, day)) {
      const s = Math.max(w.start, fromMs);
      const e = Math.min(w.end, toMs);
      if (e > s) yield { start: s, end: e };
    }
  }
}

/**
 * Trading windows before `toMs` and not before `fromMs`, newest first, clipped. Lazily walks days
 * backward so a caller can stop after the bars it needs. Windows are yielded per local day (not
 * merged across midnight), so a continuous session costs one step per day, never a scan of history.
 */
export function* windowsBackward(session: SessionName, toMs: number, fromMs: number): Generator<SessionWindow> {
  if (!(toMs > fromMs)) return;
  const zone = def(session).zone;
  const firstDay = zoneDayAt(zone, fromMs).day;
  for (let day = zoneDayAt(zone, toMs - 1).day; day >= firstDay; day--) {
    const ws = dayWindows(session, day);
    for (let i = ws.length - 1; i >= 0; i--) {
      const w = ws[i]!;
      const s = Math.max(w.start, fromMs);
      const e = Math.min(w.end, toMs);
      if (e > s) yield { start: s, end: e };
    }
  }
}

/**
 * The next instant after `ms` at which the session opens or closes, or null when none happens
 * within `horizonDays` (the `always` session never changes).
 */
export function nextSessionChange(session: SessionName, ms: number, horizonDays = 30): number | null {
  const ws = sessionWindows(session, ms - 86_400_000 * 2, ms + 86_400_000 * horizonDays);
  for (const w of ws) {
    if (w.start > ms) return w.start;
    if (w.end > ms) {
      // Inside [start, end): the next change is the close, unless the horizon clipped it.
      return w.end >= ms + 86_400_000 * horizonDays ? null : w.end;
    }
  }
  return null;
}

/**
 * The newest trading window (within one local day) that started at or before `ms`, clipped at
 * `ms + 1` if still open, or null when none within `lookbackDays`.
 */
export function lastWindowAtOrBefore(session: SessionName, ms: number, lookbackDays = 400): SessionWindow | null {
  const it = windowsBackward(session, ms + 1, ms - 86_400_000 * lookbackDays);
  const r = it.next();
  return r.done ? null : r.value;
}
