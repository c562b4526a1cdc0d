/** The field of a record that failed to convert, with its value and why. */
import type { FieldFailure } from '../core/field-failure.js';

export interface FieldError {
  readonly field: string;
  readonly value: string;
  readonly failure: FieldFailure;
}

export function isFieldError(value: object): value is FieldError {
  return 'failure' in value && 'field' in value;
}
