/**
 * Wire timestamps to UTC instants (epoch milliseconds, safe integers) and back to text.
 * Strict: ASCII digits only (no sign, no space, no fraction, no exponent), within year 0001..9999
 * rather than the epoch (the service never sends pre-1970 times; a 0 or a negative would be a bug).
 */
import { fieldFailure, quoteValue, type FieldFailure } from './field-failure.js';

export const TIME_MALFORMED = 'QL_TIME_MALFORMED';

/** 9999-12-31T23:59:59.999Z: the last instant ISO-8601 text with a 4-digit year can show. */
export const MAX_EPOCH_MS = 253_402_300_799_999;

/** The value of `text` when it is 1..maxLength ASCII digits (maxLength <= 15: exact), else -1. */
function digitsValue(text: string, maxLength: number): number {
  const n = text.length;
  if (n === 0 || n > maxLength) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** K-line `timestamp` (Unix seconds, W1) → epoch ms. */
export function parseUnixSeconds(text: string): number | FieldFailure {
  // 12 digits cover year 9999; more is out of range or padding we do not accept.
  const seconds = digitsValue(text, 12);
  if (seconds < 0) {
    return fieldFailure(TIME_MALFORMED, `${quoteValue(text)} is not Unix seconds (digits only)`);
  }
  // The epoch itself is what a missing stamp defaults to: no bar of any catalog product opens there.
  if (seconds === 0) return fieldFailure(TIME_MALFORMED, `${quoteValue(text)} is the Unix epoch, a stamp left unset`);
  const ms = seconds * 1000;
  if (ms > MAX_EPOCH_MS) {
    return fieldFailure(TIME_MALFORMED, `${quoteValue(text)} is beyond year 9999 in Unix seconds`);
  }
  return ms;
}

/** `tick_time` (Unix milliseconds, W2) → epoch ms. */
export function parseUnixMillis(text: string): number | FieldFailure {
  const ms = digitsValue(text, 15);
  if (ms < 0) {
    return fieldFailure(TIME_MALFORMED, `${quoteValue(text)} is not Unix milliseconds (digits only)`);
  }
  if (ms > MAX_EPOCH_MS) {
    return fieldFailure(TIME_MALFORMED, `${quoteValue(text)} is beyond year 9999 in Unix milliseconds`);
  }
  return ms;
}

/** ISO-8601 UTC with milliseconds, e.g. `2026-11-21T14:30:00.000Z`. */
export function formatIsoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

const DAY_MS = 86_400_000;
let lastDay = Number.NaN;
let lastDayText = '';

/** The UTC calendar date `yyyy-mm-dd` of an instant (cached: rows arrive in runs of one day). */
export function utcDate(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(day * DAY_MS).toISOString().slice(0, 10);
  }
  return lastDayText;
}

/** The UTC year `yyyy` of an instant. */
export function utcYear(ms: number): string {
  return utcDate(ms).slice(0, 4);
}
