/**
 * Raw wire records → typed rows. Pure; returns either the row or the first field that failed.
 * Decimals are validated against their column's DECIMAL(p,s) and kept as canonical text; times
 * become epoch milliseconds. Given a `BatchWords`, K-line and trade rows also carry the Decimal128
 * words of their decimals, computed in the same pass (see carried-words.ts).
 */
import { BatchWords, KlineWordsRow, TradeWordsRow } from '../../core/carried-words.js';
import { canonicalDecimal, parseDecimalWords, type DecimalType } from '../../core/decimal.js';
import { fieldFailure, quoteValue, type FieldFailure } from '../../core/field-failure.js';
import type { DepthLevelRow, DepthRow, KlineRow, RawDepth, RawKline, RawTrade, TradeRow } from '../../core/records.js';
import { parseUnixMillis, parseUnixSeconds } from '../../core/time.js';
import type { WireLevel } from '../../core/wire.js';
import type { FieldError } from '../field-error.js';

export type { FieldError } from '../field-error.js';

export interface ColumnTypes {
  readonly open: DecimalType;
  readonly high: DecimalType;
  readonly low: DecimalType;
  readonly close: DecimalType;
  readonly volume: DecimalType;
  readonly turnover: DecimalType;
  readonly price: DecimalType;
}

export const SEQ_MALFORMED = 'QL_SEQ_MALFORMED';
export const VALUE_MALFORMED = 'QL_VALUE_MALFORMED';

function err(field: string, value: unknown, failure: FieldFailure): FieldError {
  return { field, value: typeof value === 'string' ? value : String(value), failure };
}

function notText(field: string, value: unknown): FieldError {
  return err(field, value, fieldFailure(VALUE_MALFORMED, `${quoteValue(String(value))} is not a string`));
}

function isDigits(text: string): boolean {
  const n = text.length;
  if (n === 0 || n > 40) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function checkSeq(seq: unknown): FieldError | undefined {
  if (typeof seq !== 'string') return notText('seq', seq);
  if (!isDigits(seq)) return err('seq', seq, fieldFailure(SEQ_MALFORMED, `${quoteValue(seq)} is not a sequence number (digits only)`));
  return undefined;
}

function checkCode(code: unknown): FieldError | undefined {
  if (typeof code !== 'string' || code.length === 0) return err('code', code, fieldFailure(VALUE_MALFORMED, `${quoteValue(String(code))} is not a product code`));
  return undefined;
}

/** Where words go when the caller keeps none: overwritten by every value. */
const SCRATCH = new Uint32Array(6 * 4);

export function parseKline(raw: RawKline, types: ColumnTypes, words?: BatchWords, row = 0): KlineRow | FieldError {
  const bar = raw.bar;
  const bad = checkCode(raw.code);
  if (bad) return bad;
  if (typeof bar.timestamp !== 'string') return notText('timestamp', bar.timestamp);
  const ts = parseUnixSeconds(bar.timestamp);
  if (typeof ts !== 'number') return err('timestamp', bar.timestamp, ts);
  const w = words === undefined ? SCRATCH : words.words;
  const at = words === undefined ? 0 : words.offset(row);
  const open = parseDecimalWords(bar.open_price, types.open, w, at);
  if (typeof open !== 'string') return err('open_price', bar.open_price, open);
  const high = parseDecimalWords(bar.high_price, types.high, w, at + 4);
  if (typeof high !== 'string') return err('high_price', bar.high_price, high);
  const low = parseDecimalWords(bar.low_price, types.low, w, at + 8);
  if (typeof low !== 'string') return err('low_price', bar.low_price, low);
  const close = parseDecimalWords(bar.close_price, types.close, w, at + 12);
  if (typeof close !== 'string') return err('close_price', bar.close_price, close);
  const volume = parseDecimalWords(bar.volume, types.volume, w, at + 16);
  if (typeof volume !== 'string') return err('volume', bar.volume, volume);
  const turnover = parseDecimalWords(bar.turnover, types.turnover, w, at + 20);
  if (typeof turnover !== 'string') return err('turnover', bar.turnover, turnover);
  if (words !== undefined) return new KlineWordsRow(words, row, raw.code, raw.interval, ts, open, high, low, close, volume, turnover, raw.final, raw.source);
  return { code: raw.code, interval: raw.interval, ts, open, high, low, close, volume, turnover, final: raw.final, source: raw.source };
}

export function parseTrade(raw: RawTrade, types: ColumnTypes, words?: BatchWords, row = 0): TradeRow | FieldError {
  const t = raw.tick;
  const bad = checkCode(t.code) ?? checkSeq(t.seq);
  if (bad) return bad;
  if (typeof t.tick_time !== 'string') return notText('tick_time', t.tick_time);
  const ts = parseUnixMillis(t.tick_time);
  if (typeof ts !== 'number') return err('tick_time', t.tick_time, ts);
  const w = words === undefined ? SCRATCH : words.words;
  const at = words === undefined ? 0 : words.offset(row);
  const price = parseDecimalWords(t.price, types.price, w, at);
  if (typeof price !== 'string') return err('price', t.price, price);
  const volume = parseDecimalWords(t.volume, types.volume, w, at + 4);
  if (typeof volume !== 'string') return err('volume', t.volume, volume);
  const turnover = parseDecimalWords(t.turnover, types.turnover, w, at + 8);
  if (typeof turnover !== 'string') return err('turnover', t.turnover, turnover);
  const direction = t.trade_direction as unknown;
  if (direction !== 0 && direction !== 1 && direction !== 2) {
    return err('trade_direction', direction, fieldFailure(VALUE_MALFORMED, `${quoteValue(String(direction))} is not 0, 1 or 2`));
  }
  if (words !== undefined) return new TradeWordsRow(words, row, t.code, ts, t.seq, price, volume, turnover, direction, raw.fetchedAtMs);
  return { code: t.code, ts, seq: t.seq, price, volume, turnover, direction, fetched_at: raw.fetchedAtMs };
}

function parseLevels(side: 'bids' | 'asks', levels: unknown, types: ColumnTypes): DepthLevelRow[] | FieldError {
  if (!Array.isArray(levels)) return err(side, levels, fieldFailure(VALUE_MALFORMED, `${side} is not a list`));
  const out: DepthLevelRow[] = new Array(levels.length);
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as WireLevel;
    const price = canonicalDecimal(level.price, types.price);
    if (typeof price !== 'string') return err(`${side}[${i}].price`, level.price, price);
    let volume: string | null = null;
    if (level.volume !== undefined && level.volume !== null && level.volume !== '') {
      const v = canonicalDecimal(level.volume, types.volume);
      if (typeof v !== 'string') return err(`${side}[${i}].volume`, level.volume, v);
      volume = v;
    }
    out[i] = { price, volume };
  }
  return out;
}

export function parseDepth(raw: RawDepth, types: ColumnTypes): DepthRow | FieldError {
  const t = raw.tick;
  const bad = checkCode(t.code) ?? checkSeq(t.seq);
  if (bad) return bad;
  if (typeof t.tick_time !== 'string') return notText('tick_time', t.tick_time);
  const ts = parseUnixMillis(t.tick_time);
  if (typeof ts !== 'number') return err('tick_time', t.tick_time, ts);
  const bids = parseLevels('bids', t.bids, types);
  if (!Array.isArray(bids)) return bids;
  const asks = parseLevels('asks', t.asks, types);
  if (!Array.isArray(asks)) return asks;
  return { code: t.code, ts, seq: t.seq, fetched_at: raw.fetchedAtMs, bids, asks };
}
