/**
 * Halt records as windows per product code: a code maps to an exchange symbol (600000.SH ↔ SSE
 * 600000, AAPL.US ↔ NYSE/NASDAQ AAPL), overridable for other listings.
 */
import { dayNumberOfIsoDate, localToUtcMs } from '../catalog/index.js';
import { HALT_ZONES, type HaltExchange } from '../core/wire.js';

/** The fields of a halt row the coverage report needs (a HaltRow has them). */
export interface HaltLike {
  readonly exchange: HaltExchange;
  readonly symbol: string;
  readonly halt_at: number | null;
  /** The exchange-local text of the halt: a date alone (`2026-11-18`) for a halt of a whole day. */
  readonly halt_local?: string | null;
  /** Trading resumes (else quoting resumes); null = not resumed in the data. */
  readonly resume_trade_at: number | null;
  readonly resume_quote_at?: number | null;
  /**
   * The exchange-local text of the resumption: a date alone (`2026-11-20`) when the record gave a
   * resumeDate without a resumeTime (spec 2.4: resumeTime is nullable), which has no instant.
   */
  readonly resume_local?: string | null;
}

export interface HaltWindow {
  readonly exchange: HaltExchange;
  readonly symbol: string;
  readonly from: number;
  /** Infinity while not resumed. */
  readonly to: number;
}

export type SymbolMapping = (code: string) => { readonly exchanges: readonly HaltExchange[]; readonly symbol: string } | null;

/** Default: `.SH` codes on SSE, `.US` codes on NYSE and NASDAQ; others have no halt feed. */
export const defaultSymbolMapping: SymbolMapping = (code) => {
  const m = /^(.+)\.(SH|US)$/.exec(code);
  if (!m) return null;
  return m[2] === 'SH' ? { exchanges: ['sse'], symbol: m[1]! } : { exchanges: ['nyse', 'nasdaq'], symbol: m[1]! };
};

export class HaltIndex {
  private readonly bySymbol = new Map<string, HaltWindow[]>();

  constructor(
    halts: Iterable<HaltLike>,
    private readonly mapping: SymbolMapping = defaultSymbolMapping,
  ) {
    for (const h of halts) {
      const from = haltStart(h);
      if (from === null) continue;
      const resume = h.resume_trade_at ?? h.resume_quote_at ?? resumeDayStart(h);
      const key = `${h.exchange}\u0000${h.symbol}`;
      const list = this.bySymbol.get(key) ?? [];
      list.push({ exchange: h.exchange, symbol: h.symbol, from, to: resume ?? Number.POSITIVE_INFINITY });
      this.bySymbol.set(key, list);
    }
  }

  get size(): number {
    return this.bySymbol.size;
  }

  /** The halt of `code` that covers [fromMs, toMs) whole, if any. */
  covering(code: string, fromMs: number, toMs: number): HaltWindow | undefined {
    const target = this.mapping(code);
    if (!target) return undefined;
    for (const exchange of target.exchanges) {
      for (const w of this.bySymbol.get(`${exchange}\u0000${target.symbol}`) ?? []) {
        if (w.from <= fromMs && w.to >= toMs) return w;
      }
    }
    return undefined;
  }
}

/**
 * A resumption given as a date alone: trading resumes that day, so the halt ends at the start of
 * that local day at the latest (a missing bar of the resumption day or later is not explained by
 * it). Null when the record says nothing of a resumption (not resumed in the data).
 */
function resumeDayStart(h: HaltLike): number | null {
  return localDayStart(h.exchange, h.resume_local);
}

function localDayStart(exchange: HaltExchange, date: string | null | undefined): number | null {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  // Its day starts at midnight where the exchange is (normalize-halts' default zones).
  return localToUtcMs(HALT_ZONES[exchange], dayNumberOfIsoDate(date), 0);
}

/**
 * When a halt starts: its instant, or for a halt of whole days given as a date alone (SSE's 全天停牌
 * and 连续停牌 come with `haltDate` and no `haltTime`), the start of that local day.
 */
function haltStart(h: HaltLike): number | null {
  if (h.halt_at !== null) return h.halt_at;
  return localDayStart(h.exchange, h.halt_local);
}
