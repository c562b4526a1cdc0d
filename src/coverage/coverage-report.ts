/**
 * Coverage of K-line series: per (code, interval) the range held, and every gap between two held
 * bars, classified by the session calendar and the halt records:
 * - market-closed: the calendar expects no bar in the gap (nights, weekends, lunch breaks, holidays);
 * - halted: every bar the calendar expects in the gap falls inside a halt of the product;
 * - unexplained: bars the calendar expects are missing and no halt covers them.
 */
import { findProduct, sessionWindows, type Product } from '../catalog/index.js';
import type { Interval } from '../core/records.js';
import { barOpens, cellEnd } from '../catalog/bar-grid.js';
import { HaltIndex, type HaltLike, type HaltWindow, type SymbolMapping } from './halt-windows.js';

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

const emptyCounts = (): Record<GapReason, number> => ({ 'market-closed': 0, halted: 0, unexplained: 0 });

/** The trading part of a bar's cell: first session instant and end of the last session minute in it. */
function tradingSpan(product: Product, start: number, end: number): [number, number] {
  const ws = sessionWindows(product.session, start, end);
  return ws.length === 0 ? [start, end] : [ws[0]!.start, ws.at(-1)!.end];
}

export function coverageReport(rows: Iterable<KlineLike>, options: CoverageOptions = {}): CoverageReport {
  const bySeries = new Map<string, { code: string; interval: Interval; ts: number[] }>();
  for (const r of rows) {
    const key = `${r.code}\u0000${r.interval}`;
    let s = bySeries.get(key);
    if (!s) {
      s = { code: r.code, interval: r.interval, ts: [] };
      bySeries.set(key, s);
    }
    s.ts.push(r.ts);
  }
  const halts = options.halts ? new HaltIndex(options.halts, options.symbolMapping) : null;
  const totals = emptyCounts();
  const series: SeriesCoverage[] = [];
  for (const s of [...bySeries.values()].sort((a, b) => (a.code === b.code ? a.interval.localeCompare(b.interval) : a.code < b.code ? -1 : 1))) {
    const product = findProduct(s.code);
    const ts = [...new Set(s.ts)].sort((a, b) => a - b);
    const counts = emptyCounts();
    const gaps: Gap[] = [];
    if (product) {
      for (let i = 1; i < ts.length; i++) {
        const prevEnd = cellEnd(product, s.interval, ts[i - 1]!);
        const next = ts[i]!;
        if (next <= prevEnd) continue;
        const gap = classify(product, s.interval, prevEnd, next, halts);
        counts[gap.reason]++;
        if (gap.reason !== 'market-closed' || options.listClosed) gaps.push(gap);
      }
    }
    for (const k of Object.keys(counts) as GapReason[]) totals[k] += counts[k];
    const begins = options.historyBegins?.get(`${s.code} ${s.interval}`);
    series.push({ code: s.code, interval: s.interval, first: ts[0]!, last: ts.at(-1)!, bars: ts.length, gaps, counts, ...(begins !== undefined ? { historyBegins: begins } : {}) });
  }
  return { series, totals, haltsUsed: halts !== null };
}

function classify(product: Product, interval: Interval, from: number, to: number, halts: HaltIndex | null): Gap {
  const missing = [...barOpens(product, interval, from, to)];
  if (missing.length === 0) return { from, to, reason: 'market-closed', missingBars: 0 };
  const used = new Set<HaltWindow>();
  for (const open of missing) {
    const [s, e] = tradingSpan(product, open, cellEnd(product, interval, open));
    const halt = halts?.covering(product.code, s, e);
    if (!halt) return { from, to, reason: 'unexplained', missingBars: missing.length, firstUnexplained: open };
    used.add(halt);
  }
  return { from, to, reason: 'halted', missingBars: missing.length, halts: [...used] };
}
