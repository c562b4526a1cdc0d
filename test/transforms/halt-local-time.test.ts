/**
 * The remembered zone offsets and the calendar check of local-time.ts, held to luxon (what they
 * replaced): every quarter hour of a year in zones with DST (whole and half hours), without DST,
 * and at odd offsets, every minute of the hours with a change, seeded random instants 1970-2040,
 * and random wall-clock fields in and out of range.
 */
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/mulberry32.js';
import { isLocalDate, isLocalTime, parseLocalDateTime, zoneOrThrow } from '../../src/transforms/normalize-halts/local-time.js';
import { zoneOffset } from '../../src/transforms/normalize-halts/zone-offset.js';

const ZONES = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'America/St_Johns', 'Asia/Kathmandu', 'Asia/Shanghai'];
const QUARTER = 15 * 60_000;

describe('zoneOffset', () => {
  it.each(ZONES)('%s: equals luxon at every quarter hour of 2026 and every minute of an hour with a change', (name) => {
    const zone = zoneOrThrow(name);
    const changing: number[] = [];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += QUARTER) {
      const want = zone.offset(ms);
      expect(zoneOffset(zone, ms)).toBe(want);
      if (zone.offset(ms + QUARTER) !== want) changing.push(ms);
    }
    // Zones with DST change twice a year (Lord Howe by half an hour); the others never.
    expect(changing.length).toBe(['Asia/Kathmandu', 'Asia/Shanghai'].includes(name) ? 0 : 2);
    for (const from of changing) {
      for (let ms = from - 3_600_000; ms <= from + 3_600_000; ms += 60_000) expect(zoneOffset(zone, ms), new Date(ms).toISOString()).toBe(zone.offset(ms));
    }
  });

  it('equals luxon at seeded random instants from 1970 to 2040', () => {
    const random = mulberry32(20261124);
    const span = Date.UTC(2040, 0, 1);
    for (const name of ZONES) {
      const zone = zoneOrThrow(name);
      for (let i = 0; i < 2000; i++) {
        const ms = Math.floor(random() * span);
        expect(zoneOffset(zone, ms), `${name} ${new Date(ms).toISOString()}`).toBe(zone.offset(ms));
      }
    }
  });
});

/** What local-time.ts did with luxon before: the reference. */
function luxonLocal(text: string, zone: IANAZone): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const dt = DateTime.utc(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (!dt.isValid) return undefined;
  const localMs = dt.toMillis();
  const day = 86_400_000;
  const before = zone.offset(localMs - day);
  const after = zone.offset(localMs + day);
  let best: number | undefined;
  for (const offset of before === after ? [before] : [before, after]) {
    const instant = localMs - offset * 60_000;
    if (zone.offset(instant) === offset && (best === undefined || instant < best)) best = instant;
  }
  return best ?? localMs - before * 60_000;
}

describe('wall-clock text', () => {
  it('reads dates and times as luxon did, in and out of range (years 0000-0099, Feb 29/30, hour 24, second 60)', () => {
    const random = mulberry32(7);
    const pick = (values: readonly number[]) => values[Math.floor(random() * values.length)]!;
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const zone = zoneOrThrow('America/New_York');
    for (let i = 0; i < 5000; i++) {
      const y = pick([0, 1, 50, 99, 100, 1900, 1970, 2000, 2023, 2024, 2026, 2100, 9999]);
      const text = `${pad(y, 4)}-${pad(pick([0, 1, 2, 3, 11, 12, 13]))}-${pad(pick([0, 1, 28, 29, 30, 31, 32]))} ${pad(pick([0, 1, 2, 23, 24]))}:${pad(pick([0, 30, 59, 60]))}:${pad(pick([0, 59, 60]))}`;
      const got = parseLocalDateTime(text, zone);
      // luxon reads 24:00:00 of a year before 100 as the start of that day, not the end (its
      // two-digit-year path skips the rollover): there the rule is checked against the next midnight.
      const luxonSlip = y < 100 && text.endsWith(' 24:00:00');
      // Past year 9999 in UTC (late on 9999-12-31 in New York) luxon still reads it; no TIMESTAMP holds it.
      const read = luxonLocal(text, zone);
      const want = read !== undefined && read > 253_402_300_799_999 ? undefined : read;
      expect(typeof got === 'number' ? got : undefined, text).toBe(luxonSlip && want !== undefined ? want + 86_400_000 : want);
      const [date, time] = text.split(' ') as [string, string];
      expect(isLocalDate(date), date).toBe(DateTime.utc(y, +date.slice(5, 7), +date.slice(8, 10)).isValid);
      expect(isLocalTime(time), time).toBe(DateTime.utc(2000, 1, 1, +time.slice(0, 2), +time.slice(3, 5), +time.slice(6, 8)).isValid);
    }
  });

  it('the DST edges keep their rule: a gap shifted forward, an overlap read as its earlier instant', () => {
    const ny = zoneOrThrow('America/New_York');
    expect(new Date(parseLocalDateTime('2026-03-08 02:30:00', ny) as number).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(new Date(parseLocalDateTime('2026-11-01 01:30:00', ny) as number).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});
