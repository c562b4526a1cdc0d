/** `--clock` / QUOTELAKE_CLOCK: an ISO instant that exists, or a usage error naming where it came from. */
import { describe, expect, it } from 'vitest';
import { commandClock, parseInstant } from '../../src/cli/clock-option.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { systemClock } from '../../src/core/clock.js';

describe('parseInstant', () => {
  it('takes an instant with a date and a time', () => {
    expect(parseInstant('2028-02-29T23:59:59Z', '--clock')).toBe(Date.UTC(2028, 1, 29, 23, 59, 59));
    expect(parseInstant('2026-11-20T12:00:00+08:00', '--clock')).toBe(Date.UTC(2026, 10, 20, 4));
  });

  it('refuses a day or time that does not exist (Date.parse would roll it over), a date alone, a word', () => {
    for (const text of ['2026-02-29T00:00:00Z', '2026-11-31T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01', 'now']) {
      expect(() => parseInstant(text, '--clock'), text).toThrow(UsageError);
      expect(() => parseInstant(text, '--clock'), text).toThrow(`--clock must be an ISO instant such as 2026-03-04T15:00:00Z (UTC unless it names an offset), got "${text}"`);
    }
  });

  it('an instant without an offset is UTC, whatever the machine\'s time zone (Date.parse would read it as local time)', () => {
    const saved = process.env.TZ;
    try {
      for (const zone of ['America/New_York', 'Asia/Kolkata', 'UTC']) {
        process.env.TZ = zone;
        expect(parseInstant('2026-11-20T00:00:00', '--clock'), zone).toBe(Date.UTC(2026, 10, 20));
        expect(parseInstant('2026-11-20 09:30', '--clock'), zone).toBe(Date.UTC(2026, 10, 20, 9, 30));
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('blanks around an instant are not part of it, and a blank QUOTELAKE_CLOCK is unset', () => {
    expect(parseInstant(' 2026-11-20T00:00:00Z\n', '--clock')).toBe(Date.UTC(2026, 10, 20));
    expect(commandClock(undefined, { QUOTELAKE_CLOCK: '  ' })).toBe(systemClock);
  });

  it('names the environment variable when the instant came from it', () => {
    expect(() => commandClock(undefined, { QUOTELAKE_CLOCK: '2026-06-31T00:00:00Z' })).toThrow('QUOTELAKE_CLOCK must be an ISO instant');
    expect(commandClock('2026-06-30T00:00:00Z', {}).now()).toBeGreaterThanOrEqual(Date.UTC(2026, 5, 30));
  });
});
