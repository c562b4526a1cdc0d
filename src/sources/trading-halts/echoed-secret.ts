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
  if (redact === undefined) return raw;
  let masked: Record<string, string | null> | undefined;
  let first: string | undefined;
  for (const [field, value] of Object.entries(raw.record)) {
    if (typeof value !== 'string') continue;
    const clean = redact(value);
    if (clean === value) continue;
    masked ??= { ...raw.record };
    masked[field] = clean;
    first ??= field;
  }
  if (masked === undefined || first === undefined) return raw;
  const flaw: RecordFlaw = { code: SECRET_ECHOED, field: first, value: masked[first]!, reason: `holds the API token (the service echoed the request into it): kept out of the data, masked here` };
  return { ...raw, record: masked as WireHaltRecord, flaw };
}
