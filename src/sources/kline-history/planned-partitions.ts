/**
 * The kline partition folders a range of a product's bars falls into, counting only folders that
 * hold a bar: a day (or year) without one (a weekend, a holiday, today before the open) is never
 * written, so the plan does not list it.
 */
import type { Product } from '../../catalog/index.js';
import { countBars } from '../../catalog/bar-grid.js';
import { klinePartition } from '../../core/kline-partition.js';
import { LONG_INTERVALS, type Interval } from '../../core/records.js';

const DAY_MS = 86_400_000;

/** Folders with a bar opening in [fromMs, toMsExclusive) that has started by nowMs, ascending. */
export function partitionsWithBars(product: Product, interval: Interval, fromMs: number, toMsExclusive: number, nowMs: number): string[] {
  const to = Math.min(toMsExclusive, nowMs + 1);
  if (!(to > fromMs)) return [];
  const out: string[] = [];
  const has = (lo: number, hi: number) => countBars(product, interval, Math.max(lo, fromMs), Math.min(hi, to), nowMs) > 0;
  if (LONG_INTERVALS.has(interval)) {
    for (let y = new Date(fromMs).getUTCFullYear(); y <= new Date(to - 1).getUTCFullYear(); y++) {
      const start = Date.UTC(y, 0, 1);
      if (has(start, Date.UTC(y + 1, 0, 1))) out.push(klinePartition(interval, start));
    }
    return out;
  }
  for (let d = Math.floor(fromMs / DAY_MS); d <= Math.floor((to - 1) / DAY_MS); d++) {
    if (has(d * DAY_MS, (d + 1) * DAY_MS)) out.push(klinePartition(interval, d * DAY_MS));
  }
  return out;
}
