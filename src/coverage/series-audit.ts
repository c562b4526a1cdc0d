/**
 * The gap audit of one K-line series, fed bar opens in ascending order: it keeps the previous bar,
 * the counters and a capped list of gaps, never the bars themselves, so auditing a year of minute
 * bars takes the memory of one partition, whatever the lake holds.
 */
import { findProduct, sessionWindows, type Product } from '../catalog/index.js';
import { barOpens, cellEnd, countBars } from '../catalog/bar-grid.js';
import type { Interval } from '../core/records.js';
import type { Gap, GapReason, SeriesCoverage } from './coverage-report.js';
import type { HaltIndex, HaltWindow } from './halt-windows.js';

/** Gaps listed per series at most (all are counted): enough to read, bounded for any lake. */
export const MAX_LISTED_GAPS = 1000;

export interface AuditOptions {
  readonly halts: HaltIndex | null;
  /** Keep market-closed gaps in the list (they are always counted). */
  readonly listClosed?: boolean;
  readonly maxListedGaps?: number;
}

const emptyCounts = (): Record<GapReason, number> => ({ 'market-closed': 0, halted: 0, unexplained: 0 });

export class SeriesAudit {
  private readonly product: Product | undefined;
  private first = Number.NaN;
  private prev = Number.NaN;
  private bars = 0;
  private readonly counts = emptyCounts();
  private readonly gaps: Gap[] = [];
  private unlisted = 0;

  /** `expectedFrom`: bars are expected from there on (ms), so those missing before the first held bar are a gap (where none is missing, no gap). */
  constructor(
    readonly code: string,
    readonly interval: Interval,
    private readonly options: AuditOptions,
    private readonly expectedFrom?: number,
  ) {
    this.product = findProduct(code);
  }

  /** One held bar; opens must come in ascending order (a repeat of the previous one is ignored). */
  add(open: number): void {
    if (this.bars === 0) {
      if (this.product && this.expectedFrom !== undefined && open > this.expectedFrom) {
        // Only bars the calendar expects there make the stretch from the range's start a gap: none
        // (a start inside a cell that opened before it, a closed market) leaves the range's edge.
        const lead = classify(this.product, this.interval, this.expectedFrom, open, this.options.halts);
        if (lead.reason !== 'market-closed') this.gap(lead);
      }
      this.first = this.prev = open;
      this.bars = 1;
      return;
    }
    if (open === this.prev) return;
    if (open < this.prev) throw new Error(`${this.code} ${this.interval}: bar ${open} after ${this.prev}: the audit needs ascending opens`);
    if (this.product) {
      const prevEnd = cellEnd(this.product, this.interval, this.prev);
      if (open > prevEnd) this.gap(classify(this.product, this.interval, prevEnd, open, this.options.halts));
    }
    this.prev = open;
    this.bars++;
  }

  private gap(gap: Gap): void {
    this.counts[gap.reason]++;
    if (gap.reason === 'market-closed' && !this.options.listClosed) return;
    if (this.gaps.length < (this.options.maxListedGaps ?? MAX_LISTED_GAPS)) this.gaps.push(gap);
    else this.unlisted++;
  }

  /** The series' coverage; undefined when no bar was added. */
  result(extra: Pick<SeriesCoverage, 'historyBegins' | 'range'> = {}): SeriesCoverage | undefined {
    if (this.bars === 0) return undefined;
    return {
      code: this.code,
      interval: this.interval,
      first: this.first,
      last: this.prev,
      bars: this.bars,
      gaps: this.gaps,
      counts: { ...this.counts },
      ...(this.unlisted > 0 ? { gapsNotListed: this.unlisted } : {}),
      ...(extra.historyBegins !== undefined ? { historyBegins: extra.historyBegins } : {}),
      ...(extra.range !== undefined ? { range: extra.range } : {}),
      ...(this.product === undefined ? { noCalendar: true as const } : {}),
    };
  }
}

/** The trading part of a bar's cell: first session instant and end of the last session minute in it. */
function tradingSpan(product: Product, start: number, end: number): [number, number] {
  const ws = sessionWindows(product.session, start, end);
  return ws.length === 0 ? [start, end] : [ws[0]!.start, ws.at(-1)!.end];
}

/**
 * Why the bars between two held ones are missing. The missing opens are walked only until one no
 * halt explains; the count then comes from the calendar, so a gap of millions of bars (a lone bar
 * far from the rest) costs no more memory than a short one.
 */
export function classify(product: Product, interval: Interval, from: number, to: number, halts: HaltIndex | null): Gap {
  const used = new Set<HaltWindow>();
  let missing = 0;
  for (const open of barOpens(product, interval, from, to)) {
    const [s, e] = tradingSpan(product, open, cellEnd(product, interval, open));
    const halt = halts?.covering(product.code, s, e);
    if (!halt) return { from, to, reason: 'unexplained', missingBars: countBars(product, interval, from, to), firstUnexplained: open };
    used.add(halt);
    missing++;
  }
  if (missing === 0) return { from, to, reason: 'market-closed', missingBars: 0 };
  return { from, to, reason: 'halted', missingBars: missing, halts: [...used] };
}
