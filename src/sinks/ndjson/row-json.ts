/**
 * One typed row → one JSON line: decimals as their canonical strings (no exponent), instants as
 * ISO-8601 UTC with milliseconds, nulls kept. Keys are the dataset's column names.
 */
import type { Dataset } from '../../core/records.js';
import { formatIsoMillis } from '../../core/time.js';

const INSTANTS: Readonly<Record<Dataset, ReadonlySet<string>>> = {
  kline: new Set(['ts']),
  trade: new Set(['ts', 'fetched_at']),
  depth: new Set(['ts', 'fetched_at']),
  halt: new Set(['halt_at', 'resume_quote_at', 'resume_trade_at', 'published_at']),
};

/** Row fields that are not columns. */
const SKIP = new Set(['source']);

export function rowToJson(dataset: Dataset, row: object): string {
  const instants = INSTANTS[dataset];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (SKIP.has(key)) continue;
    out[key] = instants.has(key) && typeof value === 'number' ? formatIsoMillis(value) : value;
  }
  return JSON.stringify(out);
}
