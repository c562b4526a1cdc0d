/**
 * The shape of one halt record, checked before its fields are read: an object whose every field is
 * a string or null (S3, S4). A record that is not an object, or a field of another type (a number, a
 * list), is rejected by name, where reading it as text would have stored `5` or `[object Object]`.
 */
import { fieldFailure, jsonValueText } from '../../core/field-failure.js';
import { RECORD_MALFORMED, VALUE_MALFORMED } from '../../core/reject-codes.js';
import type { FieldError } from '../field-error.js';

function asJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function haltRecordShapeError(record: unknown): FieldError | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    const text = asJson(record);
    return { field: 'record', value: text, failure: fieldFailure(RECORD_MALFORMED, `${jsonValueText(text)} is not an object`) };
  }
  for (const [field, value] of Object.entries(record)) {
    if (value === null || value === undefined || typeof value === 'string') continue;
    const text = asJson(value);
    return { field, value: text, failure: fieldFailure(VALUE_MALFORMED, `${jsonValueText(text)} is not a string (every field of a halt record is text)`) };
  }
  return undefined;
}
