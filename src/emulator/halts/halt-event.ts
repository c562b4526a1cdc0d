import type { WireHaltRecord } from '../contracts.js';
import type { Random } from '../random/index.js';
import { wallToMs, type Wall } from './wall-clock.js';

/** How a field without a value is written (S4): `null`, `""`, or the key left out. */
export type Blank = 'null' | 'empty' | 'absent';

/** A field's content before rendering: a value, or a blank in a chosen representation. */
export type Cell = string | { readonly blank: Blank };

export type Fields = readonly (readonly [string, Cell])[];

/**
 * One generated halt. Its identity (exchange, symbol, halt start, publication time) never
 * changes; its content does once, when the resumption is announced: `before` carries blank
 * resume fields, `after` the announced ones.
 */
export interface HaltEvent {
  /** exchange|symbol|halt start|publication, for ordering ties and uniqueness checks. */
  readonly key: string;
  readonly publishMs: number;
  /** When the resumption is announced; <= publishMs when known at publication, Infinity if never. */
  readonly announceMs: number;
  readonly before: WireHaltRecord;
  readonly after: WireHaltRecord;
}

/** A random blank: mostly null, the rest split between "" and an absent key. */
export function blank(rng: Random): Cell {
  return { blank: rng.weighted<Blank>([['null', 0.4], ['empty', 0.3], ['absent', 0.3]]) };
}

/** `value`, or with probability `p` a random blank. */
export function maybeBlank(rng: Random, value: string, p: number): Cell {
  return rng.chance(p) ? blank(rng) : value;
}

/** Builds the wire record in field order; the object is frozen because it is shared by calls. */
export function render(fields: Fields): WireHaltRecord {
  const record: WireHaltRecord = {};
  for (const [key, cell] of fields) {
    if (typeof cell === 'string') record[key] = cell;
    else if (cell.blank === 'null') record[key] = null;
    else if (cell.blank === 'empty') record[key] = '';
  }
  return Object.freeze(record);
}

/** Newest publication first; ties broken by identity so the order is total and stable. */
export function newestFirst(a: HaltEvent, b: HaltEvent): number {
  if (a.publishMs !== b.publishMs) return b.publishMs - a.publishMs;
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0;
}

/** The instant a resumption is announced: at publication, at a later wall time, or never. */
export function announceMs(zone: string, announce: Wall | 'publish' | null, publishMs: number): number {
  if (announce === null) return Number.POSITIVE_INFINITY;
  if (announce === 'publish') return publishMs;
  return Math.max(publishMs, wallToMs(zone, announce));
}
