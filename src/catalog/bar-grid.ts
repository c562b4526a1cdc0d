/**
 * The bar grid of W12, the one copy serving the emulator (where bars exist), the sources (how
 * many bars a walk needs, which bar is final), the planner (how many requests) and the coverage
 * report (which gap is just "market closed").
 *
 * Intraday bars (kline_type 1..7) start at multiples of their period counted from 00:00 of the day
 * in the product's grid zone; daily bars at 00:00 of the date, weekly at Monday 00:00, monthly at
 * the 1st 00:00. A bar exists only where the session traded inside its cell.
 *
 * Two spellings of the same grid: by `kline_type` (the wire's number, used by the emulator) and by
 * interval name (the lake's, used by the client side); the second is a thin map onto the first.
 */
import type { Interval } from '../core/records.js';
import { intervalToKlineType, intradayMinutes } from './intervals.js';
import { sessionWindows, windowsBackward, windowsForward } from './sessions.js';
import type { Product } from './types.js';
import { dayNumber, dayNumberOfIsoDate, zoneDay, zoneDayAt } from './zone-days.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function checkType(klineType: number): void {
  if (!Number.isInteger(klineType) || klineType < 1 || klineType > 10) throw new RangeError(`kline_type must be 1..10: ${klineType}`);
}

/** Start (UTC ms) of the grid cell of `klineType` that contains instant `ms`. */
export function barStart(product: Product, klineType: number, ms: number): number {
  checkType(klineType);
  const zone = product.gridZone;
  const minutes = intradayMinutes(klineType);
  if (minutes !== undefined) {
    const pms = minutes * MINUTE_MS;
    if (zone === 'UTC') return Math.floor(ms / pms) * pms;
    const zd = zoneDayAt(zone, ms);
    return zd.startMs + Math.floor((ms - zd.startMs) / pms) * pms;
  }
  const zd = zoneDayAt(zone, ms);
  if (klineType === 8) return zd.startMs;
  if (klineType === 9) return zoneDay(zone, zd.day - (zd.weekday - 1)).startMs;
  return zoneDay(zone, dayNumber(zd.year, zd.month, 1)).startMs;
}

/** End (exclusive, UTC ms) of the grid cell of `klineType` that starts at `startMs`. */
export function barEnd(product: Product, klineType: number, startMs: number): number {
  checkType(klineType);
  const zone = product.gridZone;
  const minutes = intradayMinutes(klineType);
  if (minutes !== undefined) {
    const end = startMs + minutes * MINUTE_MS;
    // Cells never cross local midnight (a 23- or 25-hour day clips its last cell).
    return zone === 'UTC' ? end : Math.min(end, zoneDayAt(zone, startMs).endMs);
  }
  const zd = zoneDayAt(zone, startMs);
  if (klineType === 8) return zd.endMs;
  if (klineType === 9) return zoneDay(zone, zd.day + 7).startMs;
  return zoneDay(zone, dayNumber(zd.year, zd.month + 1, 1)).startMs;
}

/** UTC ms of 00:00 (grid zone) on the product's first trading date (a backward walk ends there). */
export function listedStartMs(product: Product): number {
  return zoneDay(product.gridZone, dayNumberOfIsoDate(product.listedSince)).startMs;
}

/**
 * Starts (UTC ms, ascending) of every bar of `klineType` whose cell has trading inside
 * [fromMs, toMs), on or after the listing date. A complete dataset for that range has exactly these
 * bars; any other missing instant is "market closed".
 */
export function expectedBarStarts(product: Product, klineType: number, fromMs: number, toMs: number): number[] {
  checkType(klineType);
  const out: number[] = [];
  const from = Math.max(fromMs, listedStartMs(product));
  for (const w of sessionWindows(product.session, from, toMs)) {
    if (klineType === 1) {
      // Windows are whole minutes: every minute is a bar.
      for (let t = w.start; t < w.end; t += MINUTE_MS) out.push(t);
      continue;
    }
    let c = barStart(product, klineType, w.start);
    while (c < w.end) {
      if (out[out.length - 1] !== c) out.push(c);
      c = barEnd(product, klineType, c);
    }
  }
  return out;
}

/** The interval's `kline_type` (spec 2.1). */
export function klineTypeOf(interval: Interval): number {
  return intervalToKlineType(interval);
}

/** Whether the service serves this interval for the product (2h and 4h not for stocks and indexes). */
export function intervalSupported(product: Product, interval: Interval): boolean {
  return product.supportsMultiHourBars || (interval !== '2h' && interval !== '4h');
}

/** Open time of the grid cell of `interval` that contains `ms`. */
export function cellStart(product: Product, interval: Interval, ms: number): number {
  return barStart(product, intervalToKlineType(interval), ms);
}

/**
 * Open (UTC ms) of the cell of `interval` that holds the listing date: where a series' history can
 * begin. A week or a month opens before a listing on a Thursday or the 8th, and its bar (of the
 * days since the listing) is the series' first.
 */
export function firstCellMs(product: Product, interval: Interval): number {
  return cellStart(product, interval, listedStartMs(product));
}

/** End (exclusive) of the cell of `interval` that opens at `start`. */
export function cellEnd(product: Product, interval: Interval, start: number): number {
  return barEnd(product, intervalToKlineType(interval), start);
}

/** A bar is final once its whole interval lies at or before `nowMs` (open + interval <= now). */
export function isFinalBar(product: Product, interval: Interval, openMs: number, nowMs: number): boolean {
  return cellEnd(product, interval, openMs) <= nowMs;
}

/** Longest cell of an interval, to widen a range so cells stamped inside it are seen whole. */
function maxCellMs(interval: Interval): number {
  const minutes = intradayMinutes(intervalToKlineType(interval));
  if (minutes !== undefined) return minutes * MINUTE_MS;
  if (interval === '1d') return DAY_MS + 3_600_000;
  if (interval === '1w') return 7 * DAY_MS + 3_600_000;
  return 31 * DAY_MS + 3_600_000;
}

/** The session time barOpens walks for [fromMs, toMs) as of `nowMs`; undefined when no bar can be in it. */
function openSpan(product: Product, interval: Interval, fromMs: number, toMs: number, nowMs: number): { klineType: number; lo: number; hi: number } | undefined {
  const lo = Math.max(fromMs, listedStartMs(product));
  const nowMinuteEnd = Number.isFinite(nowMs) ? Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS : Number.POSITIVE_INFINITY;
  const hi = Math.min(toMs + maxCellMs(interval), nowMinuteEnd);
  if (!(hi > lo) || !(toMs > fromMs)) return undefined;
  return { klineType: intervalToKlineType(interval), lo, hi };
}

/**
 * Open times (ms, ascending) of the bars that exist with fromMs <= open < toMs: cells holding at
 * least one trading minute of the product's session, on or after its listing, that has started by
 * `nowMs` (a cell whose session has not opened yet has no bar).
 */
export function* barOpens(product: Product, interval: Interval, fromMs: number, toMs: number, nowMs = Number.POSITIVE_INFINITY): Generator<number> {
  const span = openSpan(product, interval, fromMs, toMs, nowMs);
  if (span === undefined) return;
  const { klineType } = span;
  let last = Number.NaN;
  for (const w of windowsForward(product.session, span.lo, span.hi)) {
    let c = barStart(product, klineType, w.start);
    while (c < w.end) {
      if (c !== last && c >= fromMs && c < toMs) {
        last = c;
        yield c;
      }
      if (c >= toMs) return;
      c = barEnd(product, klineType, c);
    }
  }
}

/**
 * How many bars exist with fromMs <= open < toMs: the length of barOpens, without walking it bar by
 * bar where it need not. A backward walk asks this for every page, and on a product with sessions
 * the generator's step per bar was a tenth of a backfill's allocations.
 */
export function countBars(product: Product, interval: Interval, fromMs: number, toMs: number, nowMs?: number): number {
  const minutes = intradayMinutes(intervalToKlineType(interval));
  // Fast path for continuous UTC-gridded sessions: whole windows are counted, not walked.
  if (minutes !== undefined && product.gridZone === 'UTC' && product.session === 'always') {
    const p = minutes * MINUTE_MS;
    const lo = Math.max(fromMs, listedStartMs(product));
    const nowMinuteEnd = nowMs !== undefined ? Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS : Number.POSITIVE_INFINITY;
    const hi = Math.min(toMs, nowMinuteEnd);
    if (!(hi > lo)) return 0;
    return Math.max(0, Math.ceil(hi / p) - Math.ceil(lo / p));
  }
  const span = openSpan(product, interval, fromMs, toMs, nowMs ?? Number.POSITIVE_INFINITY);
  if (span === undefined) return 0;
  const { klineType } = span;
  let n = 0;
  let last = Number.NaN;
  for (const w of sessionWindows(product.session, span.lo, span.hi)) {
    let c = barStart(product, klineType, w.start);
    if (klineType === 1 && c % MINUTE_MS === 0) {
      // Minute bars on a whole-minute grid: every minute of the window is a bar, counted at once.
      const first = Math.max(c, fromMs, Number.isNaN(last) ? c : last + MINUTE_MS);
      const end = Math.min(w.end, toMs);
      if (end > first) {
        n += Math.ceil(end / MINUTE_MS) - Math.ceil(first / MINUTE_MS);
        last = (Math.ceil(end / MINUTE_MS) - 1) * MINUTE_MS;
      }
      if (w.end >= toMs) return n;
      continue;
    }
    while (c < w.end) {
      if (c !== last && c >= fromMs && c < toMs) {
        last = c;
        n++;
      }
      if (c >= toMs) return n;
      c = barEnd(product, klineType, c);
    }
  }
  return n;
}

/**
 * min(cap, countBars(...)): what a backward walk needs per page ("how many of the next 500 bars
 * exist"). Counted over a window below `toMs` that doubles until it holds `cap` bars or reaches
 * `fromMs`, so a page costs the same whatever the span: counting down to the floor every page made
 * a long walk quadratic in its length.
 */
export function countBarsUpTo(product: Product, interval: Interval, fromMs: number, toMs: number, cap: number, nowMs?: number): number {
  if (cap <= 0 || !(toMs > fromMs)) return 0;
  let span = 2 * cap * maxCellMs(interval);
  for (;;) {
    const lo = Math.max(fromMs, toMs - span);
    const n = countBars(product, interval, lo, toMs, nowMs);
    if (n >= cap || lo === fromMs) return Math.min(n, cap);
    span *= 2;
  }
}

/**
 * Open time (ms) of the n-th newest bar with floorMs <= open <= endMs, or null when fewer exist:
 * where a backward walk's page of n bars ending at endMs will stop (for prefetching the next page).
 */
export function nthBarBack(product: Product, interval: Interval, endMs: number, n: number, floorMs: number): number | null {
  const klineType = intervalToKlineType(interval);
  const lo = Math.max(floorMs, listedStartMs(product));
  const top = barStart(product, klineType, endMs);
  const hi = barEnd(product, klineType, top);
  if (!(hi > lo) || n < 1) return null;
  let count = 0;
  let last = Number.NaN;
  for (const w of windowsBackward(product.session, hi, lo)) {
    let c = barStart(product, klineType, w.end - 1);
    for (;;) {
      if (c !== last && c <= endMs && c >= floorMs) {
        last = c;
        if (++count === n) return c;
      }
      if (c <= w.start) break;
      c = barStart(product, klineType, c - 1);
    }
  }
  return null;
}
