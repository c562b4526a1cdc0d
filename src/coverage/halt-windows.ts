/**
 * Halt records as windows per product code: a code maps to an exchange symbol (600000.SH ↔ SSE
 * 600000, AAPL.US ↔ NYSE/NASDAQ AAPL), overridable for other listings.
 */
import type { HaltExchange } from '../core/wire.js';

/** The fields of a halt row the coverage report needs (a HaltRow has them). */
export interface HaltLike {
  readonly exchange: HaltExchange;
  readonly symbol: string;
  readonly halt_at: number | null;
  /** Trading resumes (else quoting resumes); null = not resumed in the data. */
  readonly resume_trade_at: number | null;
  readonly resume_quote_at?: number | null;
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
      if (h.halt_at === null) continue;
      const resume = h.resume_trade_at ?? h.resume_quote_at ?? null;
      const key = `${h.exchange}\u0000${h.symbol}`;
      const list = this.bySymbol.get(key) ?? [];
      list.push({ exchange: h.exchange, symbol: h.symbol, from: h.halt_at, to: resume ?? Number.POSITIVE_INFINITY });
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
