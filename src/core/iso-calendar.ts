/**
 * Whether the calendar fields written in an ISO date or date-time name a real day and time.
 * `Date.parse` rolls an impossible one over (2026-02-30 is taken as March 2, 2026-04-31 as May 1,
 * T24:00 as the next midnight), so a typo in `since`, `until` or `--clock` would silently name
 * another instant.
 */
const FIELDS = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2}))?)?/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function isoFieldsValid(text: string): boolean {
  const m = FIELDS.exec(text);
  return m !== null && fieldsValid(m);
}

/** Groups 1-6 of a match (year, month, day, hour, minute, second; the time's absent ones are 0). */
function fieldsValid(m: RegExpExecArray): boolean {
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0)) return false;
  // Absent fields are 0, always valid.
  return Number(m[4] ?? 0) <= 23 && Number(m[5] ?? 0) <= 59 && Number(m[6] ?? 0) <= 59;
}

/**
 * An ISO 8601 / RFC 3339 date, or date-time to the minute, second or a fraction of a second, with an
 * optional offset: `T`, `t` or a blank between date and time (as databases print it), `Z` or `z`,
 * and offsets as `+05:30`, `-0400` or `+00`. Fields: year, month, day, hour, minute, second,
 * fraction, offset.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Epoch ms of an ISO date or date-time, in UTC unless it names an offset (never the machine's time
 * zone, which `Date.parse` uses for a date-time without one); NaN when the text is not one, names
 * a day, time or offset that does not exist, or an instant finer than a millisecond (digits past the
 * third of the fraction must be zeros: rounding would move a bound by that much, silently).
 */
export function isoUtcMs(text: string): number {
  const m = ISO.exec(text);
  if (m === null || !fieldsValid(m)) return Number.NaN;
  const fraction = m[7] ?? '';
  if (/[1-9]/.test(fraction.slice(3))) return Number.NaN;
  const offset = offsetMinutes(m[8]);
  if (Number.isNaN(offset)) return Number.NaN;
  // setUTCFullYear, not Date.UTC: Date.UTC takes years 0-99 as 1900-1999.
  const at = new Date(0);
  at.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  at.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), Number(fraction.slice(0, 3).padEnd(3, '0')));
  return at.getTime() - offset * 60_000;
}

/** Minutes east of UTC of an offset as written (absent, Z: 0); NaN for an hour over 23 or a minute over 59. */
function offsetMinutes(written: string | undefined): number {
  if (written === undefined || written === 'Z' || written === 'z') return 0;
  const digits = written.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return Number.NaN;
  return (written[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
