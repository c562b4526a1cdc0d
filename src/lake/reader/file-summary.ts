/**
 * One live file checked and summed up from its footer: it exists, its size is the manifest's, its
 * footer's row count is the manifest's; then its series. A file that fails a check is a problem
 * (a line of text), not an exception: one bad file must not hide what the others hold.
 */
import { LakeObjectMissingError } from '../../core/errors.js';
import { readArrowFooterOf } from './arrow-footer.js';
import type { FileFooter } from './file-footer.js';
import { fileSeries, parseSeriesMetadata, SERIES_METADATA_KEY, seriesName, seriesOfRows, shapeOf, type SeriesRange } from './file-series.js';
import { parquetRows } from './file-rows.js';
import type { LakeFile } from './lake-files.js';
import { footerOfMetadata, readParquetMetadata } from './parquet-footer.js';
import { withRangeFile } from './range-file.js';

export interface FileSummary {
  readonly file: LakeFile;
  /** Absent when the file is missing or its footer unreadable. */
  readonly footer?: FileFooter;
  readonly series?: ReadonlyMap<string, SeriesRange>;
  /** The series came from `quotelake.series` (no column was read). */
  readonly seriesFromMetadata?: boolean;
  readonly problems: readonly string[];
}

export interface SummaryOptions {
  /** Also the rows and time range per series (default true). */
  readonly series?: boolean;
}

async function parquetSummary(file: LakeFile, withSeries: boolean): Promise<Omit<FileSummary, 'file' | 'problems'> & { size: number }> {
  return withRangeFile(file.storage, file.key, async (range) => {
    const meta = await readParquetMetadata(range);
    const footer = footerOfMetadata(meta, range.byteLength);
    if (!withSeries) return { footer, size: range.byteLength };
    const fromMeta = parseSeriesMetadata(footer.metadata[SERIES_METADATA_KEY]);
    if (fromMeta) return { footer, size: range.byteLength, series: renamed(file, fromMeta), seriesFromMetadata: true };
    const { key, time } = shapeOf(file.dataset);
    const single = oneSeriesByStatistics(footer, key, time);
    if (single) return { footer, size: range.byteLength, series: renamed(file, single), seriesFromMetadata: false };
    // No series metadata (0.1.0) and several series: read the key and time column chunks through the same handle and footer.
    const rows = await parquetRows(file, range, [key, time], meta);
    return { footer, size: range.byteLength, series: renamed(file, seriesOfRows(rows, key, time)), seriesFromMetadata: false };
  });
}

/**
 * A file of one series says it all in its statistics: key min = max with no null, and the time
 * column's min/max are its first/last (what a scan would find; the fuzz test holds the writer to
 * exact statistics). Undefined when the statistics do not settle it.
 */
function oneSeriesByStatistics(footer: FileFooter, key: string, time: string): Map<string, SeriesRange> | undefined {
  const k = footer.statistics[key];
  const t = footer.statistics[time];
  if (!k || !t || typeof k.min !== 'string' || k.min !== k.max || k.nullCount !== 0 || t.nullCount === undefined) return undefined;
  if (t.nullCount === footer.rows) return new Map([[k.min, { rows: footer.rows, first: null, last: null }]]);
  if (typeof t.min !== 'number' || typeof t.max !== 'number') return undefined;
  return new Map([[k.min, { rows: footer.rows, first: t.min, last: t.max }]]);
}

function renamed(file: LakeFile, byKey: ReadonlyMap<string, SeriesRange>): Map<string, SeriesRange> {
  const out = new Map<string, SeriesRange>();
  for (const [k, v] of byKey) out.set(seriesName(file, k), v);
  return out;
}

async function arrowSummary(file: LakeFile, withSeries: boolean): Promise<Omit<FileSummary, 'file' | 'problems'> & { size: number }> {
  // The footer through one range file; the series (a 0.1.0 file without metadata) open their own.
  const footer = await withRangeFile(file.storage, file.key, readArrowFooterOf);
  if (!withSeries) return { footer, size: footer.bytes };
  const { series, fromMetadata } = await fileSeries(file, footer.metadata);
  return { footer, size: footer.bytes, series, seriesFromMetadata: fromMetadata };
}

function describe(error: unknown): string {
  if (error instanceof LakeObjectMissingError) return 'ENOENT';
  const e = error as NodeJS.ErrnoException;
  return e.code === 'ENOENT' ? 'ENOENT' : (e.message ?? String(error));
}

export async function summarizeFile(file: LakeFile, options: SummaryOptions = {}): Promise<FileSummary> {
  const withSeries = options.series ?? true;
  const name = `${file.dataset}/${file.path}`;
  const problems: string[] = [];
  try {
    const s = file.format === 'parquet' ? await parquetSummary(file, withSeries) : await arrowSummary(file, withSeries);
    if (s.size !== file.listed.bytes) problems.push(`${name}: ${s.size} bytes, the manifest says ${file.listed.bytes}`);
    if (s.footer && s.footer.rows !== file.listed.rows) problems.push(`${name}: ${s.footer.rows} rows, the manifest says ${file.listed.rows}`);
    return { file, ...s, problems };
  } catch (error) {
    const why = describe(error);
    if (why === 'ENOENT') {
      problems.push(`${name}: listed in the manifest but missing`);
    } else {
      // A truncated or overwritten file: say its size too, the likelier cause.
      const size = await file.storage.size(file.key).catch(() => undefined);
      if (size !== undefined && size !== file.listed.bytes) problems.push(`${name}: ${size} bytes, the manifest says ${file.listed.bytes}`);
      problems.push(`${name}: unreadable (${why})`);
    }
    return { file, problems };
  }
}
