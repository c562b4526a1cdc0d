/**
 * The calendar questions of one backward walk, each answered once. With pages asked for ahead, a
 * walk asks the same questions again page after page (the chain of ends predicted at page k is
 * predicted again at page k+1, and a page's size was counted when it was asked for ahead), and on
 * a product with sessions each answer walks the calendar bar by bar: memoising them removes about
 * three quarters of that work. The answers are exact: countBarsUpTo depends on `now` only through
 * the minute it falls in (bar-grid.ts: the forming bar is the one open at the end of that minute),
 * so that minute is part of the key, and nthBarBack does not depend on `now` at all.
 */
import type { Product } from '../../catalog/index.js';
import { countBarsUpTo, nthBarBack } from '../../catalog/bar-grid.js';
import type { Interval } from '../../core/records.js';

const MINUTE_MS = 60_000;

/** A walk predicts a few pages ahead: a handful of entries is all it revisits. */
const MAX_ENTRIES = 64;

export class WalkCalendar {
  private readonly counts = new Map<string, number>();
  private readonly backs = new Map<string, number | null>();

  constructor(
    private readonly product: Product,
    private readonly interval: Interval,
    private readonly floorMs: number,
  ) {}

  /** countBarsUpTo(product, interval, floorMs, toMs, cap, nowMs). */
  countUpTo(toMs: number, cap: number, nowMs: number): number {
    const key = `${toMs}:${cap}:${Math.floor(nowMs / MINUTE_MS)}`;
    let n = this.counts.get(key);
    if (n === undefined) {
      n = countBarsUpTo(this.product, this.interval, this.floorMs, toMs, cap, nowMs);
      remember(this.counts, key, n);
    }
    return n;
  }

  /** nthBarBack(product, interval, endMs, n, floorMs). */
  nthBack(endMs: number, n: number): number | null {
    const key = `${endMs}:${n}`;
    let open = this.backs.get(key);
    if (open === undefined) {
      open = nthBarBack(this.product, this.interval, endMs, n, this.floorMs);
      remember(this.backs, key, open);
    }
    return open;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, value);
}
