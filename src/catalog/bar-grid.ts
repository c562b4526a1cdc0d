/**
 * The bar grid of W12, shared by the emulator (where bars exist) and the client (which bars a
 * complete dataset must have, and which gaps are just "market closed").
 *
 * Intraday bars (kline_type 1..7) start at multiples of their period counted from 00:00 of the day
 * in the product's grid zone; daily bars at 00:00 of the date, weekly at Monday 00:00, monthly at
 * the 1st 00:00. A bar exists only where the session traded inside its cell.
 */
import { intradayMinutes } from './intervals.js';
import { sessionWindows } from './sessions.js';
import type { Product } from './types.js';
import { dayNumber, dayNumberOfIsoDate, zoneDay, zoneDayAt } from './zone-days.js';

function checkType(klineType: number): void {
  if (!Number.isInteger(klineType) || klineType < 1 || klineType > 10) throw new RangeError(`kline_type must be 1..10: ${klineType}`);
}

/** Start (UTC ms) of the grid cell of `klineType` that contains instant `ms`. */
export function barStart(product: Product, klineType: number, ms: number): number {
  checkType(klineType);
  const zone = product.gridZone;
  const minutes = intradayMinutes(klineType);
  if (minutes !== undefined) {
    const pms = minutes * 60_000;
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
    const end = startMs + minutes * 60_000;
    // Cells never cross local midnight (a 23- or 25-hour day clips its last cell).
    return zone === 'UTC' ? end : Math.min(end, zoneDayAt(zone, startMs).endMs);
  }
  const zd = zoneDayAt(zone, startMs);
  if (klineType === 8) return zd.endMs;
  if (klineType === 9) return zoneDay(zone, zd.day + 7).startMs;
  return zoneDay(zone, dayNumber(zd.year, zd.month + 1, 1)).startMs;
}

/** UTC ms of 00:00 (grid zone) on the product's first trading date. */
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
      for (let t = w.start; t < w.end; t += 60_000) out.push(t);
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
