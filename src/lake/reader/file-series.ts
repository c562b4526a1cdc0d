/**
 * Rows and time range per series of one file. A file's `quotelake.series` metadata says it
 * outright (`{ "<key>": { rows, first, last } }`); a file without it (quotelake 0.1.0) has only
 * the key and time columns read, never the rest. The series of a kline file is `code interval`,
 * the interval coming from the partition path (layout 2 keeps it out of the file).
 */
import { countRow, parseSeries, SERIES_KEY, type SeriesMap, type SeriesStats } from '../series-stats.js';
import type { LakeFile } from './lake-files.js';
import { readFileRows, type LakeRow } from './file-rows.js';

/** Rows and first/last (epoch ms) of one series: the shape `quotelake.series` holds (series-stats.ts). */
export type SeriesRange = Readonly<SeriesStats>;

export { SERIES_KEY as SERIES_METADATA_KEY } from '../series-stats.js';

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

/** The series of `quotelake.series`, or undefined when the key is absent or not of that shape. */
export function parseSeriesMetadata(text: string | undefined): Map<string, SeriesRange> | undefined {
  return parseSeries(text);
}

/** Fold rows (key and time columns) into series ranges. */
export function seriesOfRows(rows: readonly LakeRow[], key: string, time: string): Map<string, SeriesRange> {
  const acc: SeriesMap = new Map();
  for (const r of rows) {
    const t = r[time];
    countRow(acc, String(r[key]), typeof t === 'number' && Number.isFinite(t) ? t : null);
  }
  return acc;
}

/**
 * Series of one file by their display name. `metadata` is the file's footer metadata; without a
 * usable `quotelake.series` only the key and time columns are read.
 */
export async function fileSeries(file: LakeFile, metadata: Readonly<Record<string, string>>): Promise<{ series: Map<string, SeriesRange>; fromMetadata: boolean }> {
  const shape = shapeOf(file.dataset);
  let byKey = parseSeriesMetadata(metadata[SERIES_KEY]);
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
