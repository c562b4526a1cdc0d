/** Calendar fields of an ISO text that name a real day and time: Date.parse rolls impossible ones over. */
import { describe, expect, it } from 'vitest';
import { isoFieldsValid } from '../../src/core/iso-calendar.js';

describe('isoFieldsValid', () => {
  it('takes real days and times, with or without a time, a separator of T or space, an offset', () => {
    for (const text of ['2026-01-01', '2026-12-31', '2026-01-31T23:59:59Z', '2026-04-30 09:30', '2028-02-29', '2000-02-29T00:00:00.000+08:00', '2026-02-28T12:00:00-05:00']) {
      expect(isoFieldsValid(text), text).toBe(true);
    }
  });

  it('refuses a day the month does not have, a month 0 or 13, an hour 24, a minute or second 60', () => {
    // 2026 and 2100 are not leap years (2100: divisible by 100, not by 400).
    for (const text of ['2026-02-29', '2100-02-29', '2026-02-30', '2026-04-31', '2026-06-31', '2026-09-31', '2026-11-31', '2026-01-32', '2026-01-00', '2026-00-10', '2026-13-01', '2026-01-01T24:00', '2026-01-01T23:60', '2026-01-01T23:59:60Z', 'soon']) {
      expect(isoFieldsValid(text), text).toBe(false);
    }
  });

  it('agrees with Date.parse on every day of four years, and catches each day Date.parse rolls over', () => {
    let rolled = 0;
    for (let year = 2026; year <= 2029; year++) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 1; day <= 31; day++) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const parsed = new Date(Date.parse(`${text}T00:00:00Z`));
          const real = parsed.getUTCMonth() + 1 === month && parsed.getUTCDate() === day;
          if (!real) rolled++;
          expect(isoFieldsValid(text), text).toBe(real);
        }
      }
    }
    // 31-day months aside: Feb 29-31 (30-31 in 2028), Apr, Jun, Sep and Nov 31, four years.
    expect(rolled).toBe(4 * 7 - 1);
  });
});
