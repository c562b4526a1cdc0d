import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFieldFailure } from '../../src/core/field-failure.js';
import { formatIsoMillis, MAX_EPOCH_MS, parseUnixMillis, parseUnixSeconds, TIME_MALFORMED, utcDate, utcYear } from '../../src/core/time.js';

describe('time', () => {
  it('converts wire seconds and milliseconds', () => {
    expect(parseUnixSeconds('1677829200')).toBe(1_677_829_200_000);
    expect(parseUnixMillis('1677830357227')).toBe(1_677_830_357_227);
    expect(formatIsoMillis(Date.UTC(2026, 10, 21, 14, 30))).toBe('2026-11-21T14:30:00.000Z');
    expect(utcDate(Date.UTC(2024, 1, 29, 23, 59, 59, 999))).toBe('2024-02-29');
    expect(utcYear(Date.UTC(2024, 11, 31, 23, 59))).toBe('2024');
  });

  it.each(['', ' 1', '1 ', '-1', '+1', '1.5', '1e9', 'NaN', '0x10', '9'.repeat(13), '0', '000'])('rejects seconds %j', (text) => {
    const r = parseUnixSeconds(text);
    expect(isFieldFailure(r) && r.code).toBe(TIME_MALFORMED);
  });

  it('rejects milliseconds beyond year 9999', () => {
    expect(parseUnixMillis(String(MAX_EPOCH_MS))).toBe(MAX_EPOCH_MS);
    expect(isFieldFailure(parseUnixMillis(String(MAX_EPOCH_MS + 1)))).toBe(true);
    expect(isFieldFailure(parseUnixSeconds('253402300800'))).toBe(true);
  });

  it('property: seconds and milliseconds round-trip through ISO text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Math.floor(MAX_EPOCH_MS / 1000) }), (s) => {
        const ms = parseUnixSeconds(String(s));
        expect(ms).toBe(s * 1000);
        expect(Date.parse(formatIsoMillis(ms as number))).toBe(s * 1000);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_EPOCH_MS }), (ms) => {
        expect(parseUnixMillis(String(ms))).toBe(ms);
        const iso = formatIsoMillis(ms);
        expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(Date.parse(iso)).toBe(ms);
        expect(utcDate(ms)).toBe(iso.slice(0, 10));
      }),
    );
  });

  it('property: anything but digits is rejected', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 14 }).filter((s) => /[^0-9]/.test(s)), (text) => {
        expect(isFieldFailure(parseUnixMillis(text))).toBe(true);
        expect(isFieldFailure(parseUnixSeconds(text))).toBe(true);
      }),
    );
  });
});
