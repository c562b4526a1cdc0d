/**
 * One typed row → one JSON line: decimals as their canonical strings (no exponent), instants as
 * ISO-8601 UTC with milliseconds, nulls kept. Keys are the dataset's column names.
 */
import type { Dataset } from '../../core/records.js';
import { stringifyExact } from '../../core/exact-json.js';
import { formatIsoMillis } from '../../core/time.js';

/** The instant columns of each dataset, written as ISO text (and read back by line-key.ts). */
export const INSTANTS: Readonly<Record<Dataset, ReadonlySet<string>>> = {
  kline: new Set(['ts']),
  trade: new Set(['ts', 'fetched_at']),
  depth: new Set(['ts', 'fetched_at']),
  halt: new Set(['halt_at', 'resume_quote_at', 'resume_trade_at', 'published_at']),
};

/** Row fields that are not columns. */
const SKIP = new Set(['source']);

/** The object a line holds: what rowToJson stringifies. */
export function rowObject(dataset: Dataset, row: object): Record<string, unknown> {
  const instants = INSTANTS[dataset];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (SKIP.has(key)) continue;
    out[key] = instants.has(key) && typeof value === 'number' ? formatIsoMillis(value) : value;
  }
  return out;
}

/** Raw records keep the service's numbers as sent (exact-json.ts). */
export function rowToJson(dataset: Dataset, row: object): string {
  return stringifyExact(rowObject(dataset, row));
}
