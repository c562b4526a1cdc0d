/**
 * K-line types (spec 2.1): `kline_type` 1..10 and the interval names the lake uses. The names are
 * the core's list (one list): index + 1 = kline_type.
 */
import { INTERVALS, type Interval } from '../core/records.js';

export const KLINE_INTERVALS: readonly Interval[] = INTERVALS;

export type KlineInterval = Interval;

/** Length in minutes of the intraday types 1..7 (1m .. 4h); index = kline_type - 1. */
const INTRADAY_MINUTES = [1, 5, 15, 30, 60, 120, 240] as const;

/** The interval name of a `kline_type`, or undefined when it is not 1..10. */
export function klineTypeToInterval(klineType: number): KlineInterval | undefined {
  return Number.isInteger(klineType) ? KLINE_INTERVALS[klineType - 1] : undefined;
}

/** The `kline_type` (1..10) of an interval name. */
export function intervalToKlineType(interval: KlineInterval): number {
  return KLINE_INTERVALS.indexOf(interval) + 1;
}

/** Minutes per bar for the intraday types 1..7; undefined for day, week, month or an invalid type. */
export function intradayMinutes(klineType: number): number | undefined {
  return Number.isInteger(klineType) ? INTRADAY_MINUTES[klineType - 1] : undefined;
}

/** kline_type 6 (2h) and 7 (4h): not served for stocks and indexes. */
export function isMultiHourKlineType(klineType: number): boolean {
  return klineType === 6 || klineType === 7;
}
