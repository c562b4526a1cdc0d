/**
 * Why a single value could not be converted. Returned (not thrown) by the decimal and time
 * primitives so the hot path allocates nothing on success and a transform can turn it into a
 * `Rejected` record naming the field and value.
 */
export interface FieldFailure {
  readonly failed: true;
  /** Stable code, e.g. `QL_DECIMAL_OVERFLOW`. */
  readonly code: string;
  /** What is wrong with the value (quoted); the caller adds the code and the field. */
  readonly reason: string;
}

export function fieldFailure(code: string, reason: string): FieldFailure {
  return { failed: true, code, reason };
}

export function isFieldFailure(value: unknown): value is FieldFailure {
  return typeof value === 'object' && value !== null && (value as { failed?: unknown }).failed === true;
}

/**
 * A wire value that is not text (a number, null, a list, an object), given as its JSON text, for a
 * message: unquoted, so `1.5 is not a string` reads apart from a string's `"1.5"`; cut like quoteValue.
 */
export function jsonValueText(json: string, max = 80): string {
  return json.length > max ? `${json.slice(0, max)}…` : json;
}

/** Quote a value for a message, cut so a hostile multi-megabyte string cannot flood a log. */
export function quoteValue(value: string, max = 80): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}
