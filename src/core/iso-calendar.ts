/**
 * Whether the calendar fields written in an ISO date or date-time name a real day and time.
 * `Date.parse` rolls an impossible one over (2026-02-30 is taken as March 2, 2026-04-31 as May 1,
 * T24:00 as the next midnight), so a typo in `since`, `until` or `--clock` would silently name
 * another instant.
 */
const FIELDS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function isoFieldsValid(text: string): boolean {
  const m = FIELDS.exec(text);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0)) return false;
  // Absent fields are 0, always valid.
  return Number(m[4] ?? 0) <= 23 && Number(m[5] ?? 0) <= 59 && Number(m[6] ?? 0) <= 59;
}

/** An ISO date, or date-time to the minute, second or millisecond, with an optional offset (Z, +05:30, -0400). */
const ISO = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Epoch ms of an ISO date or date-time, in UTC unless it names an offset (never the machine's time
 * zone, which `Date.parse` uses for a date-time without one); NaN when the text is not one, or names
 * a day or time that does not exist.
 */
export function isoUtcMs(text: string): number {
  if (!ISO.test(text) || !isoFieldsValid(text)) return Number.NaN;
  const hasZone = text.length > 10 && /(Z|[+-]\d{2}:?\d{2})$/.test(text);
  const normal = text.replace(' ', 'T');
  return Date.parse(normal.length === 10 ? `${normal}T00:00:00Z` : hasZone ? normal : `${normal}Z`);
}
