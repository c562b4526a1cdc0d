/**
 * Rows and time range per series of one file. A file's `quotelake.series` metadata says it
 * outright (`{ "<key>": { rows, first, last } }`); a file without it (quotelake 0.1.0) has only
 * the key and time columns read, never the rest. The series of a kline file is `code interval`,
 * the interval coming from the partition path (layout 2 keeps it out of the file).
 */
import type { LakeFile } from './lake-files.js';
import { readFileRows, type LakeRow } from './file-rows.js';

export interface SeriesRange {
  readonly rows: number;
  /** Epoch ms of the first and last row: bar open (kline), trade/snapshot time, halt publication. */
  readonly first: number | null;
  readonly last: number | null;
}

export const SERIES_METADATA_KEY = 'quotelake.series';

export interface SeriesShape {
  /** Column (or hive key) whose value names the series in `quotelake.series`. */
  readonly key: string;
  readonly time: string;
  /** Hive keys appended to the series name for display (kline: the interval). */
  readonly qualifier?: string;
}

const SHAPES: Record<string, SeriesShape> = {
  kline: { key: 'code', time: 'ts', qualifier: 'interval' },
  trade: { key: 'code', time: 'ts' },
  depth: { key: 'code', time: 'ts' },
  halt: { key: 'exchange', time: 'published_at' },
};

/** Which column (or hive key) names a dataset's series, and which is its time. */
export function shapeOf(dataset: string): SeriesShape {
  const shape = SHAPES[dataset];
  if (!shape) throw new Error(`no series shape for dataset ${dataset}`);
  return shape;
}

/** `BTCUSDT 1m` for a kline file under `interval=1m/`, the key itself otherwise. */
export function seriesName(file: LakeFile, key: string): string {
  const q = shapeOf(file.dataset).qualifier;
  const value = q ? file.hive[q] : undefined;
  return value === undefined ? key : `${key} ${value}`;
}

const isTime = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v));

/** The series of `quotelake.series`, or undefined when the key is absent or not of that shape. */
export function parseSeriesMetadata(text: string | undefined): Map<string, SeriesRange> | undefined {
  if (text === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const out = new Map<string, SeriesRange>();
  for (const [key, v] of Object.entries(doc as Record<string, unknown>)) {
    const s = v as { rows?: unknown; first?: unknown; last?: unknown } | null;
    if (!s || typeof s.rows !== 'number' || !Number.isInteger(s.rows) || !isTime(s.first ?? null) || !isTime(s.last ?? null)) return undefined;
    out.set(key, { rows: s.rows, first: (s.first as number | null | undefined) ?? null, last: (s.last as number | null | undefined) ?? null });
  }
  return out;
}

/** Fold rows (key and time columns) into series ranges. */
export function seriesOfRows(rows: readonly LakeRow[], key: string, time: string): Map<string, SeriesRange> {
  const acc = new Map<string, { rows: number; first: number | null; last: number | null }>();
  for (const r of rows) {
    const k = String(r[key]);
    const t = r[time];
    const s = acc.get(k) ?? { rows: 0, first: null, last: null };
    s.rows++;
    if (typeof t === 'number' && Number.isFinite(t)) {
      if (s.first === null || t < s.first) s.first = t;
      if (s.last === null || t > s.last) s.last = t;
    }
    acc.set(k, s);
  }
  return acc;
}

/**
 * Series of one file by their display name. `metadata` is the file's footer metadata; without a
 * usable `quotelake.series` only the key and time columns are read.
 */
export async function fileSeries(file: LakeFile, metadata: Readonly<Record<string, string>>): Promise<{ series: Map<string, SeriesRange>; fromMetadata: boolean }> {
  const shape = shapeOf(file.dataset);
  let byKey = parseSeriesMetadata(metadata[SERIES_METADATA_KEY]);
  const fromMetadata = byKey !== undefined;
  byKey ??= seriesOfRows(await readFileRows(file, [shape.key, shape.time]), shape.key, shape.time);
  const series = new Map<string, SeriesRange>();
  for (const [key, range] of byKey) series.set(seriesName(file, key), range);
  return { series, fromMetadata };
}

/** Merge b into a (same series in several files). */
export function addSeries(into: Map<string, SeriesRange>, from: ReadonlyMap<string, SeriesRange>): void {
  for (const [name, s] of from) {
    const t = into.get(name);
    if (!t) {
      into.set(name, s);
      continue;
    }
    const min = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.min(x, y));
    const max = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.max(x, y));
    into.set(name, { rows: t.rows + s.rows, first: min(t.first, s.first), last: max(t.last, s.last) });
  }
}
