/**
 * Reading one halt record: S4 says null, "" and absent all mean "no value".
 */
import type { IANAZone } from 'luxon';
import { fieldFailure, quoteValue } from '../../core/field-failure.js';
import { VALUE_MALFORMED } from '../../core/reject-codes.js';
import { TIME_MALFORMED } from '../../core/time.js';
import type { WireHaltRecord } from '../../core/wire.js';
import { isLocalDate, isLocalTime, parseLocalDateTime } from './local-time.js';
import type { FieldError } from '../field-error.js';

export function text(record: WireHaltRecord, key: string): string | null {
  const v = (record as Record<string, unknown>)[key];
  if (v === undefined || v === null || v === '') return null;
  return typeof v === 'string' ? v : String(v);
}

export interface LocalInstant {
  readonly at: number | null;
  /** The exchange-local text as given (date and time joined by one space when given apart). */
  readonly local: string | null;
}

const NONE: LocalInstant = { at: null, local: null };

function timeError(field: string, value: string, reason: string): FieldError {
  return { field, value, failure: fieldFailure(TIME_MALFORMED, reason) };
}

/**
 * An instant from a `...DateTime` field if present, else from `...Date` + `...Time`.
 * A date alone (no time) keeps its text in `local` with a null instant (the exchange gave no time);
 * a time alone cannot be placed and is rejected.
 */
export function readInstant(
  record: WireHaltRecord,
  zone: IANAZone,
  keys: { dateTime?: string; date: string; time: string },
): LocalInstant | FieldError {
  const dateTime = keys.dateTime !== undefined ? text(record, keys.dateTime) : null;
  if (dateTime !== null) {
    const at = parseLocalDateTime(dateTime, zone);
    if (typeof at !== 'number') return { field: keys.dateTime!, value: dateTime, failure: at };
    return { at, local: dateTime };
  }
  const date = text(record, keys.date);
  const time = text(record, keys.time);
  if (date === null && time === null) return NONE;
  if (date !== null && !isLocalDate(date)) return timeError(keys.date, date, `${quoteValue(date)} is not a date yyyy-MM-dd`);
  if (time !== null && !isLocalTime(time)) return timeError(keys.time, time, `${quoteValue(time)} is not a time HH:mm:ss`);
  if (date === null) {
    return timeError(keys.time, time!, `${quoteValue(time!)} is a time without a date (${keys.date}${keys.dateTime ? ` and ${keys.dateTime}` : ''} empty)`);
  }
  if (time === null) return { at: null, local: date };
  const local = `${date} ${time}`;
  const at = parseLocalDateTime(local, zone);
  if (typeof at !== 'number') return { field: keys.time, value: time, failure: at };
  return { at, local };
}

export function requiredText(record: WireHaltRecord, key: string): string | FieldError {
  const v = text(record, key);
  if (v === null) return { field: key, value: '', failure: fieldFailure(VALUE_MALFORMED, `${key} is required and was ${quoteValue(String((record as Record<string, unknown>)[key] ?? 'absent'))}`) };
  return v;
}

/**
 * The symbol, which identifies the halt: the source keys a record by its trimmed text, so a symbol
 * with blanks around it (or only blanks) would be stored as another symbol than its key says, and
 * the service's corrected record would land beside it as a second halt. Rejected by name instead.
 */
export function symbolText(record: WireHaltRecord): string | FieldError {
  const symbol = requiredText(record, 'symbol');
  if (typeof symbol !== 'string' || symbol.trim() === symbol) return symbol;
  return { field: 'symbol', value: symbol, failure: fieldFailure(VALUE_MALFORMED, `${quoteValue(symbol)} has blanks around it (a symbol has none)`) };
}
