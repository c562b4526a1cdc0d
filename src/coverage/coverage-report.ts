/**
 * Coverage of K-line series: per (code, interval) the range held, and every gap between two held
 * bars, classified by the session calendar and the halt records:
 * - market-closed: the calendar expects no bar in the gap (nights, weekends, lunch breaks, holidays);
 * - halted: every bar the calendar expects in the gap falls inside a halt of the product;
 * - unexplained: bars the calendar expects are missing and no halt covers them.
 */
import type { Interval } from '../core/records.js';
import { HaltIndex, type HaltLike, type HaltWindow, type SymbolMapping } from './halt-windows.js';
import { SeriesAudit } from './series-audit.js';

export type GapReason = 'market-closed' | 'halted' | 'unexplained';

/** The fields of a kline row the report needs (a KlineRow or a RawKline-derived row). */
export interface KlineLike {
  readonly code: string;
  readonly interval: Interval;
  /** Bar open, ms. */
  readonly ts: number;
}

export interface Gap {
  /** End of the last held bar before the gap (ms). */
  readonly from: number;
  /** Open of the first held bar after it (ms). */
  readonly to: number;
  readonly reason: GapReason;
  /** Bars the calendar expects in the gap (0 when the market was closed). */
  readonly missingBars: number;
  /** For `halted`: the halt(s) that cover it. */
  readonly halts?: readonly HaltWindow[];
  /** For `unexplained`: open of the first missing bar that no halt covers. */
  readonly firstUnexplained?: number;
}

export interface SeriesCoverage {
  readonly code: string;
  readonly interval: Interval;
  /** Open of the first and last held bar (ms). */
  readonly first: number;
  readonly last: number;
  readonly bars: number;
  readonly gaps: readonly Gap[];
  readonly counts: Readonly<Record<GapReason, number>>;
  /** Open of the oldest bar the service has (ms), when a walk found that its history begins there (R1). */
  readonly historyBegins?: number;
  /** Gaps counted but left out of `gaps` (a list is capped; the counts never are). */
  readonly gapsNotListed?: number;
  /**
   * The bar opens the report was narrowed to (ms, inclusive; a bound absent = none), e.g. a
   * run's own range: bars outside it are not read, and the stretch between a bound and the nearest
   * held bar is not a gap.
   */
  readonly range?: { readonly from?: number; readonly to?: number };
  /** The catalog has no calendar for the code (a custom source's): its gaps cannot be told, none is counted. */
  readonly noCalendar?: true;
}

export interface CoverageReport {
  readonly series: readonly SeriesCoverage[];
  readonly totals: Readonly<Record<GapReason, number>>;
  /** Whether a halt dataset was given (without one, a halt shows as unexplained). */
  readonly haltsUsed: boolean;
}

export interface CoverageOptions {
  readonly halts?: Iterable<HaltLike>;
  readonly symbolMapping?: SymbolMapping;
  /** Keep market-closed gaps in `gaps` (they are always counted); default false: they are many. */
  readonly listClosed?: boolean;
  /** Where a series' history begins on the service (ms), by `code interval`: said, not counted as a gap. */
  readonly historyBegins?: ReadonlyMap<string, number>;
}

/** Series order of a report: by code, then interval. */
export function bySeries(a: { code: string; interval: string }, b: { code: string; interval: string }): number {
  return a.code === b.code ? a.interval.localeCompare(b.interval) : a.code < b.code ? -1 : 1;
}

/** Totals over the series of a report. */
export function totalsOf(series: readonly SeriesCoverage[]): Record<GapReason, number> {
  const totals: Record<GapReason, number> = { 'market-closed': 0, halted: 0, unexplained: 0 };
  for (const s of series) for (const k of Object.keys(totals) as GapReason[]) totals[k] += s.counts[k];
  return totals;
}

/** The report of rows held in memory (any order, repeats allowed); the lake's is coverageOfOutput, streamed. */
export function coverageReport(rows: Iterable<KlineLike>, options: CoverageOptions = {}): CoverageReport {
  const bySeriesKey = new Map<string, { code: string; interval: Interval; ts: number[] }>();
  for (const r of rows) {
    const key = `${r.code}\u0000${r.interval}`;
    let s = bySeriesKey.get(key);
    if (!s) {
      s = { code: r.code, interval: r.interval, ts: [] };
      bySeriesKey.set(key, s);
    }
    s.ts.push(r.ts);
  }
  const halts = options.halts ? new HaltIndex(options.halts, options.symbolMapping) : null;
  const series: SeriesCoverage[] = [];
  for (const s of [...bySeriesKey.values()].sort(bySeries)) {
    const audit = new SeriesAudit(s.code, s.interval, { halts, ...(options.listClosed !== undefined ? { listClosed: options.listClosed } : {}) });
    for (const t of Float64Array.from(s.ts).sort()) audit.add(t);
    const begins = options.historyBegins?.get(`${s.code} ${s.interval}`);
    series.push(audit.result(begins !== undefined ? { historyBegins: begins } : {})!);
  }
  return { series, totals: totalsOf(series), haltsUsed: halts !== null };
}
