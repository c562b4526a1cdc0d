import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dayNumber, dayNumberOfIsoDate, localToUtcMs, zoneDay, zoneDayAt } from '../../src/catalog/zone-days.js';

const ZONES = ['America/New_York', 'Asia/Hong_Kong', 'Asia/Shanghai', 'Europe/London', 'UTC'];

describe('zone days', () => {
  it('local wall times match luxon, except that a time the autumn overlap repeats is the earlier instant', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: dayNumber(1960, 1, 1), max: dayNumber(2040, 1, 1) }), fc.integer({ min: 0, max: 1439 }), (zone, day, minute) => {
        const d = new Date(day * 86_400_000);
        const dt = DateTime.fromObject({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: Math.floor(minute / 60), minute: minute % 60 }, { zone });
        // luxon reads a repeated wall time with the later offset; quotelake's rule (as for halt
        // times) takes the earlier instant. Every DST shift of these zones since 1960 is one hour.
        const hourBefore = DateTime.fromMillis(dt.toMillis() - 3_600_000, { zone });
        const repeated = hourBefore.hour === dt.hour && hourBefore.minute === dt.minute && hourBefore.day === dt.day;
        expect(localToUtcMs(zone, day, minute)).toBe(repeated ? hourBefore.toMillis() : dt.toMillis());
      }),
      { numRuns: 500 },
    );
  });

  it('the repeated hour of an autumn change is read as its earlier instant (daylight time)', () => {
    expect(new Date(localToUtcMs('America/New_York', dayNumber(2008, 11, 2), 60)).toISOString()).toBe('2008-11-02T05:00:00.000Z');
    expect(new Date(localToUtcMs('Europe/London', dayNumber(2026, 10, 25), 90)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // and a time the spring change skips moves forward by the gap, as luxon does
    expect(new Date(localToUtcMs('America/New_York', dayNumber(2026, 3, 8), 150)).toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('DST days are 23 and 25 hours long in New York', () => {
    const spring = zoneDay('America/New_York', dayNumber(2026, 3, 8));
    expect(spring.endMs - spring.startMs).toBe(23 * 3_600_000);
    expect(new Date(spring.startMs).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    const fall = zoneDay('America/New_York', dayNumber(2026, 11, 1));
    expect(fall.endMs - fall.startMs).toBe(25 * 3_600_000);
    expect(fall.weekday).toBe(7);
  });

  it('zoneDayAt finds the local day of an instant', () => {
    expect(zoneDayAt('Asia/Shanghai', Date.parse('2026-11-19T16:00:00Z')).dayOfMonth).toBe(20);
    expect(zoneDayAt('Asia/Shanghai', Date.parse('2026-11-19T15:59:59.999Z')).dayOfMonth).toBe(19);
    expect(zoneDayAt('America/New_York', Date.parse('2026-11-20T04:59:59Z')).dayOfMonth).toBe(19);
  });

  it('parses ISO dates strictly', () => {
    expect(dayNumberOfIsoDate('1970-01-02')).toBe(1);
    expect(() => dayNumberOfIsoDate('2026-02-30')).toThrow(RangeError);
    expect(() => dayNumberOfIsoDate('2026-2-3')).toThrow(RangeError);
  });
});
