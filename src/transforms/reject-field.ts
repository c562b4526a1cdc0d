/** Build a `Rejected` whose reason names the code, the field and the value. */
import type { Rejected } from '../core/component.js';
import type { FieldFailure } from '../core/field-failure.js';

export function rejectField<T>(record: T, stream: string, field: string, value: string, failure: FieldFailure): Rejected<T> {
  return {
    record,
    stream,
    code: failure.code,
    field,
    value,
    reason: `${failure.code}: field ${field}: ${failure.reason}`,
  };
}
