/**
 * The product catalog: code lookup, families and the trading calendars. Shared by the emulator
 * and the client.
 */
import { PRODUCTS } from './products.js';
import type { Family, Product } from './types.js';

export type { Family, Product, ProductClass, SessionName, StockMarket } from './types.js';
export { PRODUCTS } from './products.js';
export {
  KLINE_INTERVALS,
  type KlineInterval,
  klineTypeToInterval,
  intervalToKlineType,
  intradayMinutes,
  isMultiHourKlineType,
} from './intervals.js';
export {
  type SessionWindow,
  SESSION_HOLIDAYS,
  SESSION_NAMES,
  sessionZone,
  isTrading,
  sessionWindows,
  windowsBackward,
  nextSessionChange,
  lastWindowAtOrBefore,
  dayWindows,
} from './sessions.js';
export {
  barStart,
  barEnd,
  expectedBarStarts,
  listedStartMs,
  klineTypeOf,
  intervalSupported,
  cellStart,
  cellEnd,
  isFinalBar,
  barOpens,
  countBars,
  countBarsUpTo,
  nthBarBack,
} from './bar-grid.js';
export { type ZoneDay, zoneDay, zoneDayAt, zoneOffsetMs, dayNumber, dayNumberOfIsoDate, localToUtcMs } from './zone-days.js';

const BY_CODE: ReadonlyMap<string, Product> = new Map(PRODUCTS.map((p) => [p.code, p]));

/** The product with exactly this code (case-sensitive), or undefined. */
export function findProduct(code: string): Product | undefined {
  return BY_CODE.get(code);
}

/** Every product of the catalog, in catalog order. */
export function listProducts(): readonly Product[] {
  return PRODUCTS;
}

const STOCK_SUFFIX = /\.(US|HK|SH|SZ)$/;

/**
 * The family (W11) of a code: the catalog's when the code is listed, otherwise by suffix
 * (`.US`, `.HK`, `.SH`, `.SZ` = stock, anything else = non-stock).
 */
export function familyOf(code: string): Family {
  return BY_CODE.get(code)?.family ?? (STOCK_SUFFIX.test(code) ? 'stock' : 'non-stock');
}
