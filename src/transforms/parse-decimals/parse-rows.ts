/**
 * Raw wire records → typed rows. Pure; returns either the row or the first field that failed.
 * Every field is read as possibly anything (the client checks answers, not records: issue 12).
 * Decimals are validated against their column's DECIMAL(p,s) and kept as canonical text; times
 * become epoch milliseconds and must be in the wire's unit; a bar's prices must agree with each
 * other and amounts traded must not be negative. Given a `BatchWords`, K-line and trade rows also carry the Decimal128
 * words of their decimals, computed in the same pass (see carried-words.ts).
 */
import { BatchWords, KlineWordsRow, TradeWordsRow } from '../../core/carried-words.js';
import { canonicalDecimal, parseDecimalWords, type DecimalType } from '../../core/decimal.js';
import { compareDecimal, compareWords128, isNegativeDecimal } from '../../core/decimal-compare.js';
import { stringifyExact } from '../../core/exact-json.js';
import { fieldFailure, jsonValueText, quoteValue, type FieldFailure } from '../../core/field-failure.js';
import type { RecordFlaw } from '../../core/record-flaw.js';
import { ScannedBar } from '../../core/scanned-bar.js';
import type { DepthLevelRow, DepthRow, KlineRow, RawDepth, RawKline, RawTrade, TradeRow } from '../../core/records.js';
import { NEGATIVE_AMOUNT, OHLC_INCONSISTENT, RECORD_MALFORMED, TIME_UNIT, VALUE_MALFORMED } from '../../core/reject-codes.js';
import { MAX_EPOCH_MS, parseUnixMillis, parseUnixSeconds } from '../../core/time.js';
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
export { VALUE_MALFORMED } from '../../core/reject-codes.js';

function err(field: string, value: unknown, failure: FieldFailure): FieldError {
  return { field, value: typeof value === 'string' ? value : value === undefined ? '' : describeRaw(value), failure };
}

/** A non-string value as the text stored beside a rejected record (JSON, so its type shows). */
function describeRaw(value: unknown): string {
  try {
    return stringifyExact(value);
  } catch {
    return String(value);
  }
}

function notText(field: string, value: unknown): FieldError {
  if (value === undefined) return err(field, value, fieldFailure(VALUE_MALFORMED, 'is missing'));
  return err(field, value, fieldFailure(VALUE_MALFORMED, `${describe(value)} is not a string`));
}

/** A wire value for a message: JSON for anything but a string, so `1.5` and `"1.5"` read apart. */
function describe(value: unknown): string {
  if (typeof value === 'string') return quoteValue(value);
  return jsonValueText(describeRaw(value));
}

/** A source's verdict on the record (see record-flaw.ts), as the field error it rejects with. */
function fromFlaw(flaw: RecordFlaw): FieldError {
  return { field: flaw.field, value: flaw.value, failure: fieldFailure(flaw.code, flaw.reason) };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function notObject(field: string, value: unknown): FieldError {
  return err(field, value, fieldFailure(RECORD_MALFORMED, `${describe(value)} is not an object`));
}

/** A decimal field: a string that fits its column, else why not. */
function decimal(field: string, value: unknown, type: DecimalType, w: Uint32Array, at: number): string | FieldError {
  if (typeof value !== 'string') return notText(field, value);
  const out = parseDecimalWords(value, type, w, at);
  return typeof out === 'string' ? out : err(field, value, out);
}

/** A K-line decimal (slot k of KLINE_DECIMALS): the words the client's scanner folded when it did, else read from the text. */
function barDecimal(bar: object, k: number, field: string, value: unknown, type: DecimalType, w: Uint32Array, at: number): string | FieldError {
  if (typeof value === 'string') {
    const scanned = ScannedBar.takeDecimal(bar, k, value, type, w, at);
    if (scanned !== undefined) return scanned;
  }
  return decimal(field, value, type, w, at);
}

function nonNegative(field: string, value: string): FieldError | undefined {
  if (!isNegativeDecimal(value)) return undefined;
  return err(field, value, fieldFailure(NEGATIVE_AMOUNT, `${quoteValue(value)} is negative`));
}

/** Below this, a `tick_time` read as ms is before 1973-03-03: it is Unix seconds (W2 says ms). */
const MIN_PLAUSIBLE_MS = 100_000_000_000;

/** `tick_time` (W2: Unix ms) → epoch ms, or why not; a value in seconds is its own code. */
function tickTime(value: unknown): number | FieldError {
  if (typeof value !== 'string') return notText('tick_time', value);
  // 16 digits are microseconds today, 19 nanoseconds: a finer unit, not a malformed time.
  if (value.length >= 16 && /^\d{16,19}$/.test(value)) return err('tick_time', value, fieldFailure(TIME_UNIT, `${quoteValue(value)} has ${value.length} digits: Unix micro- or nanoseconds, not milliseconds (W2)`));
  const ts = parseUnixMillis(value);
  if (typeof ts !== 'number') return err('tick_time', value, ts);
  if (ts < MIN_PLAUSIBLE_MS) return err('tick_time', value, fieldFailure(TIME_UNIT, `${quoteValue(value)} is Unix seconds, not milliseconds (W2)`));
  return ts;
}

/** K-line `timestamp` (W1: Unix s) → epoch ms, or why not; 13 to 15 digits are milliseconds. */
function barTime(bar: object, value: unknown): number | FieldError {
  // The scanner's number when it read 1 to 12 digits within year 9999 (0 too); anything else is judged from the text.
  const scanned = ScannedBar.stampOf(bar);
  if (scanned !== undefined && scanned > 0 && scanned * 1000 <= MAX_EPOCH_MS) return scanned * 1000;
  if (typeof value !== 'string') return notText('timestamp', value);
  if (value.length >= 13 && /^\d{13,15}$/.test(value)) return err('timestamp', value, fieldFailure(TIME_UNIT, `${quoteValue(value)} is Unix milliseconds, not seconds (W1)`));
  const ts = parseUnixSeconds(value);
  return typeof ts === 'number' ? ts : err('timestamp', value, ts);
}

/**
 * Whether the four prices, whose words sit at at, at+4, at+8 and at+12 (open, high, low, close),
 * are consistent: compared as 128-bit integers when the four share a scale (the hot path: no text).
 */
export function ohlcConsistent(types: ColumnTypes, w: Uint32Array, at: number): boolean | undefined {
  const s = types.open.scale;
  if (types.high.scale !== s || types.low.scale !== s || types.close.scale !== s) return undefined;
  const open = at;
  const high = at + 4;
  const low = at + 8;
  const close = at + 12;
  return (
    compareWords128(w, low, high) <= 0 &&
    compareWords128(w, open, low) >= 0 &&
    compareWords128(w, open, high) <= 0 &&
    compareWords128(w, close, low) >= 0 &&
    compareWords128(w, close, high) <= 0
  );
}

/** low <= open, close <= high (and so low <= high); the first contradiction found, named. */
function ohlcProblem(open: string, high: string, low: string, close: string): FieldError | undefined {
  const bad = (field: string, value: string, why: string) => err(field, value, fieldFailure(OHLC_INCONSISTENT, why));
  if (compareDecimal(low, high) > 0) return bad('low_price', low, `low ${low} is above high ${high}`);
  if (compareDecimal(open, low) < 0) return bad('open_price', open, `open ${open} is below low ${low}`);
  if (compareDecimal(open, high) > 0) return bad('open_price', open, `open ${open} is above high ${high}`);
  if (compareDecimal(close, low) < 0) return bad('close_price', close, `close ${close} is below low ${low}`);
  if (compareDecimal(close, high) > 0) return bad('close_price', close, `close ${close} is above high ${high}`);
  return undefined;
}

/** Digits a `seq` may have: more than any counter needs, and a bound on what a key may hold. */
const MAX_SEQ_DIGITS = 40;

function isDigits(text: string): boolean {
  const n = text.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function checkSeq(seq: unknown): FieldError | undefined {
  if (typeof seq !== 'string') return notText('seq', seq);
  if (!isDigits(seq)) return err('seq', seq, fieldFailure(SEQ_MALFORMED, `${quoteValue(seq)} is not a sequence number (digits only)`));
  if (seq.length > MAX_SEQ_DIGITS) return err('seq', seq, fieldFailure(SEQ_MALFORMED, `${quoteValue(seq)} has ${seq.length} digits, more than the ${MAX_SEQ_DIGITS} a sequence number may have`));
  return undefined;
}

function checkCode(code: unknown): FieldError | undefined {
  if (typeof code !== 'string' || code.length === 0) return err('code', code, fieldFailure(VALUE_MALFORMED, `${quoteValue(String(code))} is not a product code`));
  return undefined;
}

/** Where words go when the caller keeps none: overwritten by every value. */
const SCRATCH = new Uint32Array(6 * 4);

export function parseKline(raw: RawKline, types: ColumnTypes, words?: BatchWords, row = 0): KlineRow | FieldError {
  if (raw.flaw) return fromFlaw(raw.flaw);
  const bar = raw.bar as unknown;
  if (!isObject(bar)) return notObject('record', bar);
  const b = bar as Record<string, unknown>;
  const bad = checkCode(raw.code);
  if (bad) return bad;
  const ts = barTime(b, b.timestamp);
  if (typeof ts !== 'number') return ts;
  const w = words === undefined ? SCRATCH : words.words;
  const at = words === undefined ? 0 : words.offset(row);
  const open = barDecimal(b, 0, 'open_price', b.open_price, types.open, w, at);
  if (typeof open !== 'string') return open;
  const high = barDecimal(b, 1, 'high_price', b.high_price, types.high, w, at + 4);
  if (typeof high !== 'string') return high;
  const low = barDecimal(b, 2, 'low_price', b.low_price, types.low, w, at + 8);
  if (typeof low !== 'string') return low;
  const close = barDecimal(b, 3, 'close_price', b.close_price, types.close, w, at + 12);
  if (typeof close !== 'string') return close;
  const volume = barDecimal(b, 4, 'volume', b.volume, types.volume, w, at + 16);
  if (typeof volume !== 'string') return volume;
  const turnover = barDecimal(b, 5, 'turnover', b.turnover, types.turnover, w, at + 20);
  if (typeof turnover !== 'string') return turnover;
  // The words say whether the bar is consistent; the texts name what is wrong when it is not.
  const wrong = (ohlcConsistent(types, w, at) === true ? undefined : ohlcProblem(open, high, low, close)) ?? nonNegative('volume', volume) ?? nonNegative('turnover', turnover);
  if (wrong) return wrong;
  if (words !== undefined) return new KlineWordsRow(words, row, raw.code, raw.interval, ts, open, high, low, close, volume, turnover, raw.final, raw.source);
  return { code: raw.code, interval: raw.interval, ts, open, high, low, close, volume, turnover, final: raw.final, source: raw.source };
}

export function parseTrade(raw: RawTrade, types: ColumnTypes, words?: BatchWords, row = 0): TradeRow | FieldError {
  if (raw.flaw) return fromFlaw(raw.flaw);
  const t = raw.tick as unknown;
  if (!isObject(t)) return notObject('record', t);
  const tick = t as Record<string, unknown>;
  const bad = checkCode(tick.code) ?? checkSeq(tick.seq);
  if (bad) return bad;
  const code = tick.code as string;
  const seq = tick.seq as string;
  const ts = tickTime(tick.tick_time);
  if (typeof ts !== 'number') return ts;
  const w = words === undefined ? SCRATCH : words.words;
  const at = words === undefined ? 0 : words.offset(row);
  const price = decimal('price', tick.price, types.price, w, at);
  if (typeof price !== 'string') return price;
  const volume = decimal('volume', tick.volume, types.volume, w, at + 4);
  if (typeof volume !== 'string') return volume;
  const turnover = decimal('turnover', tick.turnover, types.turnover, w, at + 8);
  if (typeof turnover !== 'string') return turnover;
  // Optional on the wire, 0 (neutral) its default (spec 2.3): absent or null is 0.
  const direction = tick.trade_direction ?? 0;
  if (direction !== 0 && direction !== 1 && direction !== 2) {
    return err('trade_direction', direction, fieldFailure(VALUE_MALFORMED, `${describe(direction)} is not 0, 1 or 2`));
  }
  const wrong = nonNegative('volume', volume) ?? nonNegative('turnover', turnover);
  if (wrong) return wrong;
  if (words !== undefined) return new TradeWordsRow(words, row, code, ts, seq, price, volume, turnover, direction, raw.fetchedAtMs, raw.source);
  return { code, ts, seq, price, volume, turnover, direction, fetched_at: raw.fetchedAtMs, source: raw.source };
}

function parseLevels(side: 'bids' | 'asks', levels: unknown, types: ColumnTypes): DepthLevelRow[] | FieldError {
  // A side may be empty (a stock at its limit-up or limit-down price, spec 2.2), and optional on
  // the wire: absent or null is no levels (S4), never a reason to lose the other side.
  if (levels === undefined || levels === null) return [];
  if (!Array.isArray(levels)) return err(side, levels, fieldFailure(VALUE_MALFORMED, `${side} ${describe(levels)} is not a list`));
  const out: DepthLevelRow[] = new Array(levels.length);
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as unknown;
    if (!isObject(level)) return err(`${side}[${i}]`, level, fieldFailure(VALUE_MALFORMED, `${describe(level)} is not a price level`));
    const l = level as Record<string, unknown>;
    if (typeof l.price !== 'string') return notText(`${side}[${i}].price`, l.price);
    const price = canonicalDecimal(l.price, types.price);
    if (typeof price !== 'string') return err(`${side}[${i}].price`, l.price, price);
    let volume: string | null = null;
    // No volume is "this book has none" (some CFD indexes, 2.2): absent, null or "".
    if (l.volume !== undefined && l.volume !== null && l.volume !== '') {
      if (typeof l.volume !== 'string') return notText(`${side}[${i}].volume`, l.volume);
      const v = canonicalDecimal(l.volume, types.volume);
      if (typeof v !== 'string') return err(`${side}[${i}].volume`, l.volume, v);
      const negative = nonNegative(`${side}[${i}].volume`, v);
      if (negative) return negative;
      volume = v;
    }
    out[i] = { price, volume };
  }
  return out;
}

export function parseDepth(raw: RawDepth, types: ColumnTypes): DepthRow | FieldError {
  if (raw.flaw) return fromFlaw(raw.flaw);
  const t = raw.tick as unknown;
  if (!isObject(t)) return notObject('record', t);
  const tick = t as Record<string, unknown>;
  const bad = checkCode(tick.code) ?? checkSeq(tick.seq);
  if (bad) return bad;
  const ts = tickTime(tick.tick_time);
  if (typeof ts !== 'number') return ts;
  const bids = parseLevels('bids', tick.bids, types);
  if (!Array.isArray(bids)) return bids;
  const asks = parseLevels('asks', tick.asks, types);
  if (!Array.isArray(asks)) return asks;
  return { code: tick.code as string, ts, seq: tick.seq as string, fetched_at: raw.fetchedAtMs, bids, asks, source: raw.source };
}
