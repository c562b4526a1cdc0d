/** Sample raw records and their typed rows (through the real transforms). */
import { parseDecimals } from '../../src/transforms/parse-decimals/index.js';
import { normalizeHalts } from '../../src/transforms/normalize-halts/index.js';
import type { DepthRow, HaltRow, Interval, KlineRow, RawDepth, RawHalt, RawKline, RawTrade, TradeRow } from '../../src/core/records.js';
import { runContext, sinkEnv } from './helpers.js';

export const SHIB_CLOSE = '0.0000187123456';
export const BIG_TURNOVER = '123456789012345.123456789012345678';

export function rawKline(code: string, interval: Interval, seconds: number, close: string, final = true, turnover = '1175337.4468315'): RawKline {
  return {
    code,
    interval,
    final,
    source: '/kline',
    // open = high = low = close: a consistent bar (low <= open, close <= high) whatever the close.
    bar: { timestamp: String(seconds), open_price: close, close_price: close, high_price: close, low_price: close, volume: '12.84510', turnover },
  };
}

const transform = parseDecimals.create(parseDecimals.configSchema.parse({}), sinkEnv('/tmp', 'kline'));

export function toRows<T>(records: unknown[]): T[] {
  const { output, rejected } = transform.apply({ stream: 's', seq: 1, records: records as never }, runContext());
  if (rejected.length > 0) throw new Error(rejected[0]!.reason);
  return output.records as T[];
}

export function klineRows(records: RawKline[]): KlineRow[] {
  return toRows<KlineRow>(records);
}

export function tradeRows(records: RawTrade[]): TradeRow[] {
  return toRows<TradeRow>(records);
}

export function depthRows(records: RawDepth[]): DepthRow[] {
  return toRows<DepthRow>(records);
}

const halts = normalizeHalts.create(normalizeHalts.configSchema.parse({}), sinkEnv('/tmp', 'halt'));

export function haltRows(records: RawHalt[]): HaltRow[] {
  const { output, rejected } = halts.apply({ stream: 'halt', seq: 1, records }, runContext());
  if (rejected.length > 0) throw new Error(rejected[0]!.reason);
  return [...output.records];
}

/** 2025-11-19T07:00:00Z */
export const T0 = 1763535600;
