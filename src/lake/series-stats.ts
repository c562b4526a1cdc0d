/**
 * `quotelake.series`, the per-series summary every data file carries in its metadata, so a reader
 * of footers alone (inspect, coverage) knows what a file holds without reading its rows:
 * `{ "<series key>": { "rows": n, "first": <epoch ms|null>, "last": <epoch ms|null> } }`, keys
 * sorted. The series key is the dataset spec's `seriesKey` (code; exchange for halts), the time its
 * `seriesTime` (kline bar open `ts`, trade/depth `ts`, halt `published_at`).
 */
export const SERIES_KEY = 'quotelake.series';

export interface SeriesStats {
  rows: number;
  /** Lowest and highest time of the series' rows; null while none had one. */
  first: number | null;
  last: number | null;
}

export type SeriesMap = Map<string, SeriesStats>;

/** Count one row of `series` at `time` into `stats` (its entry made on first use). */
export function countRow(stats: SeriesMap, series: string, time: number | null): SeriesStats {
  const s = countRows(stats, series);
  addTime(s, time);
  return s;
}

/** The entry of `series` in `stats`, made (with no row) on first use. */
export function countRows(stats: SeriesMap, series: string): SeriesStats {
  let s = stats.get(series);
  if (s === undefined) {
    s = { rows: 0, first: null, last: null };
    stats.set(series, s);
  }
  return s;
}

/** One more row at `time` into an entry already at hand (the buffering hot path). */
export function addTime(s: SeriesStats, time: number | null): void {
  addTimes(s, 1, time, time);
}

/** `rows` more rows timed from `first` to `last` (the lowest and highest of them) into an entry at hand. */
export function addTimes(s: SeriesStats, rows: number, first: number | null, last: number | null): void {
  s.rows += rows;
  if (first !== null && (s.first === null || first < s.first)) s.first = first;
  if (last !== null && (s.last === null || last > s.last)) s.last = last;
}

/** The statistics of `rows`, as written into a file. */
export function seriesOfRows<R>(rows: readonly R[], key: (row: R) => string, time: (row: R) => number | null): SeriesMap {
  const out: SeriesMap = new Map();
  let lastKey: string | undefined;
  let last: SeriesStats | undefined;
  for (const row of rows) {
    const k = key(row);
    if (k !== lastKey || last === undefined) {
      last = out.get(k);
      if (last === undefined) out.set(k, (last = { rows: 0, first: null, last: null }));
      lastKey = k;
    }
    addTime(last, time(row));
  }
  return out;
}

/** The metadata value: keys sorted, so equal contents give equal text. */
export function formatSeries(stats: ReadonlyMap<string, SeriesStats>): string {
  const out: Record<string, SeriesStats> = {};
  for (const key of [...stats.keys()].sort()) {
    const s = stats.get(key)!;
    out[key] = { rows: s.rows, first: s.first, last: s.last };
  }
  return JSON.stringify(out);
}

/** The value read back; undefined when it is missing (files of 0.1.0) or not of this shape. */
export function parseSeries(value: string | undefined): SeriesMap | undefined {
  if (value === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const out: SeriesMap = new Map();
  const time = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v));
  for (const [key, s] of Object.entries(doc as Record<string, unknown>)) {
    const { rows, first, last } = (s ?? {}) as Record<string, unknown>;
    if (typeof rows !== 'number' || !Number.isInteger(rows) || rows < 0 || !time(first) || !time(last)) return undefined;
    out.set(key, { rows, first, last });
  }
  return out;
}

/**
 * The statistics of files whose rows are put together, none dropped (a compaction of disjoint
 * files): rows add up, first is the lowest, last the highest. A merge that drops duplicate keys
 * must count its own rows (seriesOfRows) instead.
 */
export function unionSeries(all: readonly ReadonlyMap<string, SeriesStats>[]): SeriesMap {
  const out: SeriesMap = new Map();
  for (const stats of all) {
    for (const [key, s] of stats) {
      const o = out.get(key);
      if (o === undefined) {
        out.set(key, { rows: s.rows, first: s.first, last: s.last });
        continue;
      }
      o.rows += s.rows;
      if (s.first !== null && (o.first === null || s.first < o.first)) o.first = s.first;
      if (s.last !== null && (o.last === null || s.last > o.last)) o.last = s.last;
    }
  }
  return out;
}
