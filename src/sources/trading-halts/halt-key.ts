/**
 * Identity and content of a halt record, from its wire text alone: the key is exchange, symbol,
 * halt start and publication time (what the halt dataset merges on); the content hash changes
 * when any field does (e.g. the resume time filled in later). Both are short hashes, so the state
 * of a year of records stays small.
 */
import { createHash } from 'node:crypto';
import type { HaltExchange, WireHaltRecord } from '../../core/wire.js';

/**
 * S4: null, "" and absent all mean "no value". A record of the wrong shape (not an object, a field
 * that is not text) still gets a key and a hash here: normalize-halts rejects it by name.
 */
function text(record: WireHaltRecord, field: string): string | null {
  if (typeof record !== 'object' || record === null) return null;
  const v: unknown = record[field];
  if (v === null || v === undefined) return null;
  const t = typeof v === 'string' ? v.trim() : JSON.stringify(v);
  return t === '' ? null : t;
}

function short(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 12);
}

/** The halt's start as the exchange wrote it: haltDateTime, else haltDate + haltTime. */
export function haltStartText(record: WireHaltRecord): string {
  const dateTime = text(record, 'haltDateTime');
  if (dateTime !== null) return dateTime;
  return [text(record, 'haltDate'), text(record, 'haltTime')].filter((x) => x !== null).join(' ');
}

export function haltKey(exchange: HaltExchange, record: WireHaltRecord): string {
  return short([exchange, text(record, 'symbol') ?? '', haltStartText(record), text(record, 'publishDate') ?? ''].join('\u0000'));
}

/**
 * A field's content for the hash: S4's "no value" (null, "", absent) is one; otherwise the text
 * exactly as sent (untrimmed: normalize-halts rejects `" 145.50"`, so its correction `"145.50"` must
 * be a change), and a value of another JSON type tagged as such, so that a record normalize-halts
 * rejected (`145.5` as a number) and its corrected form (`"145.5"`) differ and the correction is written.
 */
function content(record: WireHaltRecord, field: string): string | null {
  const v: unknown = (record as Record<string, unknown>)[field];
  if (v === null || v === undefined || v === '') return null;
  // Text without surrounding blanks hashes as before (checkpoints of earlier versions stay valid).
  return typeof v === 'string' ? v : `\u0001json:${JSON.stringify(v)}`;
}

export function haltContentHash(record: WireHaltRecord): string {
  if (typeof record !== 'object' || record === null) return short(JSON.stringify(record) ?? String(record));
  const fields = Object.keys(record)
    .filter((k) => content(record, k) !== null)
    .sort()
    .map((k) => `${k}=${content(record, k)}`);
  return short(fields.join('\u0000'));
}
