/**
 * A halt record is free text the service wrote (reasons, notes): a service that echoes the request
 * into it (an error page, a debug note) would carry the API token into the lake. Such a record
 * is flagged, with the token masked in every field, so normalize-halts rejects it and the raw
 * NDJSON that keeps it shows the mask: the token is never written (README, Errors).
 */
import type { RecordFlaw } from '../../core/record-flaw.js';
import type { RawHalt } from '../../core/records.js';
import { SECRET_ECHOED } from '../../core/reject-codes.js';
import type { WireHaltRecord } from '../../core/wire.js';

/** The record as it may be kept: itself when no field holds a token, else masked and flagged. */
export function withoutEchoedSecret(raw: RawHalt, redact: ((text: string) => string) | undefined): RawHalt {
  // A record that is no object is rejected by name downstream (QL_RECORD_MALFORMED), masked by the rejected writer.
  if (redact === undefined || raw.record === null || typeof raw.record !== 'object' || Array.isArray(raw.record)) return raw;
  let masked: Record<string, unknown> | undefined;
  let first: string | undefined;
  for (const [field, value] of Object.entries(raw.record as Record<string, unknown>)) {
    const clean = maskedValue(value, redact);
    if (clean === value) continue;
    masked ??= { ...raw.record };
    masked[field] = clean;
    first ??= field;
  }
  if (masked === undefined || first === undefined) return raw;
  const shown = masked[first];
  const flaw: RecordFlaw = {
    code: SECRET_ECHOED,
    field: first,
    value: typeof shown === 'string' ? shown : JSON.stringify(shown),
    reason: 'holds the API token (the service echoed the request into it): kept out of the data, masked here',
  };
  return { ...raw, record: masked as WireHaltRecord, flaw };
}

/** The value with the token masked; the value itself when it holds none. Text, or any JSON value an unknown field carries. */
function maskedValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  const clean = redact(text);
  if (clean === text) return value;
  try {
    return JSON.parse(clean) as unknown;
  } catch {
    return clean;
  }
}
