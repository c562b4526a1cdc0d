/**
 * The bar grid (W12) computed from the catalog alone, without a request: which bars exist for a
 * product and interval in a time range, when a bar's interval ends, and how many bars a walk
 * needs. The backfill sizes its requests with it, the planner counts with it, and the coverage
 * report tells a gap from a closed market with it.
 */
import { dayNumber, dayNumberOfIsoDate, sessionWindows, windowsBackward, zoneDay, zoneDayAt, type Product } from '../../catalog/index.js';
import type { Interval } from '../../core/records.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const INTRADAY_MINUTES: Partial<Record<Interval, number>> = {
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '2h': 120,
  '4h': 240,
};

/** The interval's `kline_type` (spec 2.1). */
export function klineTypeOf(interval: Interval): number {
  return ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '1d', '1w', '1mo'].indexOf(interval) + 1;
}

/** Whether the service serves this interval for the product (2h and 4h not for stocks and indexes). */
export function intervalSupported(product: Product, interval: Interval): boolean {
  return product.supportsMultiHourBars || (interval !== '2h' && interval !== '4h');
}

/** UTC ms of the product's first listed day (a backward walk ends there). */
export function listedStartMs(product: Product): number {
  return zoneDay(product.gridZone, dayNumberOfIsoDate(product.listedSince)).startMs;
}

/** Open time of the grid cell that contains `ms`. */
export function cellStart(product: Product, interval: Interval, ms: number): number {
  const zone = product.gridZone;
  const minutes = INTRADAY_MINUTES[interval];
  if (minutes !== undefined) {
    const p = minutes * MINUTE_MS;
    if (zone === 'UTC') return Math.floor(ms / p) * p;
    const zd = zoneDayAt(zone, ms);
    return zd.startMs + Math.floor((ms - zd.startMs) / p) * p;
  }
  const zd = zoneDayAt(zone, ms);
  if (interval === '1d') return zd.startMs;
  if (interval === '1w') return zoneDay(zone, zd.day - (zd.weekday - 1)).startMs;
  return zoneDay(zone, dayNumber(zd.year, zd.month, 1)).startMs;
}

/** End (exclusive) of the cell that opens at `start`: intraday cells never cross the zone's midnight. */
export function cellEnd(product: Product, interval: Interval, start: number): number {
  const zone = product.gridZone;
  const minutes = INTRADAY_MINUTES[interval];
  if (minutes !== undefined) {
    const next = start + minutes * MINUTE_MS;
    return zone === 'UTC' ? next : Math.min(next, zoneDayAt(zone, start).endMs);
  }
  const zd = zoneDayAt(zone, start);
  if (interval === '1d') return zd.endMs;
  if (interval === '1w') return zoneDay(zone, zd.day + 7).startMs;
  return zoneDay(zone, dayNumber(zd.year, zd.month + 1, 1)).startMs;
}

/** A bar is final once its whole interval lies at or before `nowMs` (open + interval <= now). */
export function isFinalBar(product: Product, interval: Interval, openMs: number, nowMs: number): boolean {
  return cellEnd(product, interval, openMs) <= nowMs;
}

/** Longest cell of an interval, to widen a range so cells stamped inside it are seen whole. */
function maxCellMs(interval: Interval): number {
  const minutes = INTRADAY_MINUTES[interval];
  if (minutes !== undefined) return minutes * MINUTE_MS;
  if (interval === '1d') return DAY_MS + 3_600_000;
  if (interval === '1w') return 7 * DAY_MS + 3_600_000;
  return 31 * DAY_MS + 3_600_000;
}

/**
 * Open times (ms, ascending) of the bars that exist with fromMs <= open < toMs: cells holding at
 * least one trading minute of the product's session, on or after its listing, that has started by
 * `nowMs` (a cell whose session has not opened yet has no bar).
 */
export function* barOpens(product: Product, interval: Interval, fromMs: number, toMs: number, nowMs = Number.POSITIVE_INFINITY): Generator<number> {
  const listed = listedStartMs(product);
  const lo = Math.max(fromMs, listed);
  const nowMinuteEnd = Number.isFinite(nowMs) ? Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS : Number.POSITIVE_INFINITY;
  const hi = Math.min(toMs + maxCellMs(interval), nowMinuteEnd);
  if (!(hi > lo) || !(toMs > fromMs)) return;
  let last = Number.NaN;
  for (const w of sessionWindows(product.session, lo, hi)) {
    let c = cellStart(product, interval, w.start);
    while (c < w.end) {
      if (c !== last && c >= fromMs && c < toMs) {
        last = c;
        yield c;
      }
      if (c >= toMs) return;
      c = cellEnd(product, interval, c);
    }
  }
}

/** How many bars exist with fromMs <= open < toMs (see barOpens). */
export function countBars(product: Product, interval: Interval, fromMs: number, toMs: number, nowMs?: number): number {
  const minutes = INTRADAY_MINUTES[interval];
  // Fast path for continuous UTC-gridded sessions: whole windows are counted, not walked.
  if (minutes !== undefined && product.gridZone === 'UTC' && product.session === 'always') {
    const p = minutes * MINUTE_MS;
    const lo = Math.max(fromMs, listedStartMs(product));
    const nowMinuteEnd = nowMs !== undefined ? Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS : Number.POSITIVE_INFINITY;
    const hi = Math.min(toMs, nowMinuteEnd);
    if (!(hi > lo)) return 0;
    return Math.max(0, Math.ceil(hi / p) - Math.ceil(lo / p));
  }
  let n = 0;
  for (const _ of barOpens(product, interval, fromMs, toMs, nowMs)) n++;
  return n;
}

/**
 * Open time (ms) of the n-th newest bar with floorMs <= open <= endMs, or null when fewer exist:
 * where a backward walk's page of n bars ending at endMs will stop (for prefetching the next page).
 */
export function nthBarBack(product: Product, interval: Interval, endMs: number, n: number, floorMs: number): number | null {
  const lo = Math.max(floorMs, listedStartMs(product));
  const top = cellStart(product, interval, endMs);
  const hi = cellEnd(product, interval, top);
  if (!(hi > lo) || n < 1) return null;
  let count = 0;
  let last = Number.NaN;
  for (const w of windowsBackward(product.session, hi, lo)) {
    let c = cellStart(product, interval, w.end - 1);
    for (;;) {
      if (c !== last && c <= endMs && c >= floorMs) {
        last = c;
        if (++count === n) return c;
      }
      if (c <= w.start) break;
      c = cellStart(product, interval, c - 1);
    }
  }
  return null;
}
