/**
 * Reject codes of per-record checks beyond "this value does not parse" (issue 12). Stable: they
 * are written with every rejected record under `_rejected/` and listed in the README.
 */

/** A field is missing or not of its documented type (a number where the wire has a string, null where a value is required). */
export const VALUE_MALFORMED = 'QL_VALUE_MALFORMED';
/** The element of a list is not an object (a bare number, string, null or list). */
export const RECORD_MALFORMED = 'QL_RECORD_MALFORMED';
/** A time in the wrong unit: `tick_time` in seconds (W2 says ms), a K-line `timestamp` in ms (W1 says s). */
export const TIME_UNIT = 'QL_TIME_UNIT';
/** A bar whose timestamp is not the start of a cell of the product's bar grid (W12). */
export const BAR_OFF_GRID = 'QL_BAR_OFF_GRID';
/** A bar that opens after the answer that holds it was received (beyond the clock skew allowed): no such bar can have begun. */
export const BAR_IN_FUTURE = 'QL_BAR_IN_FUTURE';
/** A bar that opens before its product was listed (the catalog's listing date): no such bar can exist, and below every window it would vanish unseen. */
export const BAR_BEFORE_LISTING = 'QL_BAR_BEFORE_LISTING';
/** A depth or trade tick whose `tick_time` is after its answer was received (beyond the clock skew allowed): no such quote or trade can have happened. */
export const TICK_IN_FUTURE = 'QL_TICK_IN_FUTURE';
/** A bar whose prices contradict each other: low above open, close or high, or high below them. */
export const OHLC_INCONSISTENT = 'QL_OHLC_INCONSISTENT';
/** A negative volume or turnover (prices may be negative; amounts traded may not). */
export const NEGATIVE_AMOUNT = 'QL_NEGATIVE_AMOUNT';
/** The answer's `code` or `kline_type` is not the one asked for: its records belong to no requested series. */
export const ECHO_MISMATCH = 'QL_ECHO_MISMATCH';
/** Two records with the same key and different values in one answer: neither is trusted. */
export const DUPLICATE_CONFLICT = 'QL_DUPLICATE_CONFLICT';
/** A record that holds the API token (the service echoed the request into its text): kept out of the data, masked in `_rejected/`. */
export const SECRET_ECHOED = 'QL_SECRET_ECHOED';
