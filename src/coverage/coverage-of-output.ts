/**
 * The coverage report of an output folder, read through the lake reader: of the kline dataset only
 * code, interval (a hive key) and ts; of the halt dataset only the columns a halt window needs.
 * `series` narrows it to a pipeline's own series (the run summary), skipping files of other
 * intervals by their path and files of other codes by the manifest's key ranges.
 */
import type { HaltRow, Interval, KlineRow } from '../core/records.js';
import { readLakeRecords, readLakeRows, type LakeFile, type LakeFormat } from '../lake/reader/index.js';
import { coverageReport, type CoverageOptions, type CoverageReport, type KlineLike } from './coverage-report.js';
import type { HaltLike } from './halt-windows.js';

export type OutputFormat = LakeFormat;

/** A series a report may be narrowed to. */
export interface SeriesRef {
  readonly code: string;
  readonly interval: string;
}

export interface OutputCoverageOptions extends Omit<CoverageOptions, 'halts'> {
  readonly format?: OutputFormat;
  /** Only these series (default: every series the lake holds). */
  readonly series?: readonly SeriesRef[];
}

/** Every live kline row as a typed record (exact decimals). */
export function readKlineRows(outputDir: string, format: OutputFormat = 'parquet'): Promise<KlineRow[]> {
  return readLakeRecords(outputDir, 'kline', format);
}

/** Every live halt row as a typed record. */
export function readHaltRows(outputDir: string, format: OutputFormat = 'parquet'): Promise<HaltRow[]> {
  return readLakeRecords(outputDir, 'halt', format);
}

function seriesFilter(series: readonly SeriesRef[]): { file: (f: LakeFile) => boolean; row: (code: string, interval: string) => boolean } {
  const keys = new Set(series.map((s) => `${s.code} ${s.interval}`));
  const codes = new Set(series.map((s) => s.code));
  const intervals = new Set(series.map((s) => s.interval));
  return {
    // The manifest's ranges are keyed by group, the code for K-lines: a file with none of ours is skipped unread.
    file: (f) => {
      if (f.hive.interval !== undefined && !intervals.has(f.hive.interval)) return false;
      const groups = Object.keys(f.listed.ranges ?? {});
      return groups.length === 0 || groups.some((c) => codes.has(c));
    },
    row: (code, interval) => keys.has(`${code} ${interval}`),
  };
}

export async function coverageOfOutput(outputDir: string, options: OutputCoverageOptions = {}): Promise<CoverageReport> {
  const { format = 'parquet', series, ...rest } = options;
  const only = series ? seriesFilter(series) : undefined;
  const [klineRows, haltRows] = await Promise.all([
    readLakeRows(outputDir, 'kline', format, ['code', 'interval', 'ts'], only ? { files: only.file } : {}),
    readLakeRows(outputDir, 'halt', format, ['exchange', 'symbol', 'halt_at', 'resume_trade_at', 'resume_quote_at']),
  ]);
  const klines: KlineLike[] = [];
  for (const r of klineRows) {
    const code = String(r.code);
    const interval = String(r.interval);
    if (only && !only.row(code, interval)) continue;
    klines.push({ code, interval: interval as Interval, ts: r.ts as number });
  }
  const halts = haltRows as unknown as HaltLike[];
  return coverageReport(klines, { ...rest, ...(halts.length > 0 ? { halts } : {}) });
}
