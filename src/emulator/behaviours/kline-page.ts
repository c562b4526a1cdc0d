import { intradayMinutes } from '../../catalog/intervals.js';
import type { Product } from '../../catalog/types.js';
import type { MarketBackend } from '../backends.js';
import type { WireKline } from '../contracts.js';
import { fnv1a } from '../random/index.js';
import { draw, shuffled, TAG } from './draw.js';

/** Seconds of one bar period per kline_type (month: its longest), for the overlap behaviour. */
const PERIOD_SEC: readonly number[] = [0, 60, 300, 900, 1800, 3600, 7200, 14_400, 86_400, 7 * 86_400, 31 * 86_400];

/** Bars one /kline answer holds at most; a larger count is served as this many (W5). */
const MAX_PAGE_BARS = 500;

/** Enough look-ups to fill a page of 500 at the highest missing rate (0.9) many times over. */
const MAX_LOOKUPS = 400;

/**
 * R1 missing bars: an intraday bar (1m to 4h) whose cell had "no trade". Decided per
 * (seed, code, kline_type, timestamp) only, so the same bars are absent from every answer, every
 * token with the same rate, and the ground truth. Each series is decided on its own: a coarser bar
 * still aggregates every minute of its cell (documented simplification).
 */
export function isMissingBar(seed: number, rate: number, code: string, klineType: number, timestampSec: number): boolean {
  if (rate <= 0 || intradayMinutes(klineType) === undefined) return false;
  return draw(seed, TAG.missing, fnv1a(code), klineType, timestampSec) < rate;
}

/**
 * The newest `count` bars with timestamp <= endSec (0 = newest) that exist, ascending: the market's
 * bars with the missing ones removed, refilled from older bars (W4 still holds: a page then spans
 * more time than its count).
 */
export function existingKlines(
  market: MarketBackend,
  seed: number,
  missingRate: number,
  product: Product,
  klineType: number,
  endSec: number,
  count: number,
  nowMs: number,
): WireKline[] {
  if (missingRate <= 0 || intradayMinutes(klineType) === undefined) return market.klines(product, klineType, endSec, count, nowMs);
  const newestFirst: WireKline[] = [];
  let end = endSec;
  for (let lookups = 0; lookups < MAX_LOOKUPS && newestFirst.length < count; lookups++) {
    const page = market.klines(product, klineType, end, count, nowMs);
    for (let i = page.length - 1; i >= 0 && newestFirst.length < count; i--) {
      const k = page[i]!;
      if (!isMissingBar(seed, missingRate, product.code, klineType, Number(k.timestamp))) newestFirst.push(k);
    }
    if (page.length < count) break; // the start of history
    const oldest = Number(page[0]!.timestamp);
    if (!(oldest > 1)) break;
    end = oldest - 1;
  }
  return newestFirst.reverse();
}

export interface PageRates {
  missingBars: number;
  shortPages: number;
  overlap: number;
  descending: number;
  shuffle: number;
}

/**
 * One /kline answer's bars under R1 and R2: overlap (end moved one bar period later, so a client
 * that asks for `oldest - 1` gets its oldest bar again), missing bars, a short page (the newest
 * 1..count-1 bars kept: older bars still exist), then the order. Decisions hash the request itself
 * (code, type, end, count as asked, and the second for end 0), never the arrival order: a count
 * above 500 is another request, though it is served as 500 (W5).
 */
export function klinePage(
  market: MarketBackend,
  seed: number,
  rates: PageRates,
  product: Product,
  klineType: number,
  endSec: number,
  count: number,
  nowMs: number,
): WireKline[] {
  const key = [fnv1a(product.code), klineType, endSec, count, endSec === 0 ? Math.floor(nowMs / 1000) : 0] as const;
  let end = endSec;
  if (endSec > 0 && draw(seed, TAG.overlap, ...key) < rates.overlap) end = endSec + PERIOD_SEC[klineType]!;
  let bars = existingKlines(market, seed, rates.missingBars, product, klineType, end, Math.min(count, MAX_PAGE_BARS), nowMs);
  if (bars.length >= 2 && draw(seed, TAG.short, ...key) < rates.shortPages) {
    const keep = 1 + Math.floor(draw(seed, TAG.shortCount, ...key) * (bars.length - 1));
    bars = bars.slice(bars.length - keep);
  }
  return ordered(bars, seed, rates, ...key);
}

/** R2: ascending as the market gives it, newest first, or shuffled. */
export function ordered(
  bars: WireKline[],
  seed: number,
  rates: Pick<PageRates, 'descending' | 'shuffle'>,
  ...key: readonly number[]
): WireKline[] {
  if (bars.length < 2) return bars;
  if (draw(seed, TAG.order, ...key) < rates.descending) return bars.slice().reverse();
  if (draw(seed, TAG.shuffle, ...key) < rates.shuffle) return shuffled(bars, seed, TAG.shuffle, ...key);
  return bars;
}
