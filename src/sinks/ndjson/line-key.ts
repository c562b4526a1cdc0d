/**
 * The key of one NDJSON line, so a file that accumulates holds each row once: a typed row is keyed
 * by its dataset spec (partition, group, order: the key the Parquet sink merges by); a raw record
 * (no transform) by the same fields as the service sent them. Computed from the line's object, so a
 * line read back from the file and a row about to be written get the same key.
 */
import type { Dataset } from '../../core/records.js';
import { datasetSpec } from '../../lake/datasets/index.js';
import { INSTANTS } from './row-json.js';

type Line = Record<string, unknown>;

function rawKey(obj: Line): string | undefined {
  const { bar, tick, record } = obj as { bar?: Line; tick?: Line; record?: Line };
  if (bar && typeof bar === 'object') {
    // The service may spell one instant several ways ("1700000000", "1.7e9"): key the number.
    const ts = Number(bar['timestamp']);
    return `raw\u0000${String(obj['interval'])}\u0000${String(obj['code'])}\u0000${Number.isFinite(ts) ? ts : String(bar['timestamp'])}`;
  }
  if (tick && typeof tick === 'object') return `raw\u0000${String(tick['code'])}\u0000${String(tick['seq'])}`;
  // A raw halt's layout differs by exchange: only an identical record is the same row.
  if (record && typeof record === 'object') return `raw\u0000${String(obj['exchange'])}\u0000${JSON.stringify(record)}`;
  return undefined;
}

const isObject = (v: unknown): v is Line => typeof v === 'object' && v !== null;

/**
 * The dataset a line is a row of, where its shape says so (a typed row's columns, a raw record's
 * envelope); undefined for anything else.
 */
export function lineDataset(obj: Line): Dataset | undefined {
  if (isObject(obj['bar']) || ('interval' in obj && 'close' in obj)) return 'kline';
  if (isObject(obj['record']) || ('symbol' in obj && 'published_at' in obj)) return 'halt';
  const tick = isObject(obj['tick']) ? obj['tick'] : obj;
  if (!('seq' in tick)) return undefined;
  if ('bids' in tick || 'asks' in tick) return 'depth';
  return 'price' in tick ? 'trade' : undefined;
}

/** The line's object with its instant columns back in epoch milliseconds, as the spec expects. */
function revive(dataset: Dataset, obj: Line): Line {
  const out: Line = { ...obj };
  for (const key of INSTANTS[dataset]) {
    const value = out[key];
    if (typeof value === 'string') out[key] = Date.parse(value);
  }
  return out;
}

export function lineKey(dataset: Dataset, obj: Line, line: string): string {
  const raw = rawKey(obj);
  if (raw !== undefined) return raw;
  const spec = datasetSpec(dataset);
  const row = revive(dataset, obj) as never;
  try {
    return `row\u0000${spec.partition(row)}\u0000${spec.group(row)}\u0000${String(spec.order(row))}`;
  } catch {
    // A record that is none of the dataset's rows (a test's counter row): only an identical line is the same.
    return `line\u0000${line}`;
  }
}

/** Whether the newer of two lines with one key replaces the older: as the spec prefers (a final bar stays final). */
export function newerWins(dataset: Dataset, older: Line, newer: Line): boolean {
  const prefer = datasetSpec(dataset).prefer;
  if (!prefer) return true;
  // kline's rule reads only `final`, which raw and typed K-lines both carry.
  return (prefer(older as never, newer as never) as unknown) === newer;
}
