/**
 * One halt record in its exchange's layout (S3) → one `halt` row.
 *
 * - SSE (Asia/Shanghai): halt from haltDate + haltTime; resume_trade_at from resumeDate +
 *   resumeTime; resume_quote_at null (SSE does not tell quoting from trading).
 * - NYSE (America/New_York): halt from haltDateTime, else haltDate + haltTime; resume_trade_at from
 *   resumeDateTime, else resumeDate + resumeTime; resume_quote_at null (NYSE gives one resumption).
 * - NASDAQ (America/New_York): as NYSE for the halt; resume_quote_at from resumeDate + resumeTime
 *   (quoting resumes), resume_trade_at from resumeDateTime (trading resumes). A resumeTime whose
 *   resumeDate is empty takes the date of resumeDateTime when it is not later in that day:
 *   quoting resumes minutes before trading does.
 * resume_local is the text of the field that gave resume_trade_at, else of resume_quote_at.
 * A date without a time keeps its text in *_local with a null instant.
 */
import type { IANAZone } from 'luxon';
import { canonicalDecimal, type DecimalType } from '../../core/decimal.js';
import type { HaltRow, RawHalt } from '../../core/records.js';
import type { HaltExchange, WireHaltRecord } from '../../core/wire.js';
import { isFieldError, type FieldError } from '../field-error.js';
import { readInstant, requiredText, symbolText, text, type LocalInstant } from './halt-fields.js';
import { haltRecordShapeError } from './halt-record-shape.js';
import { parseLocalDateTime } from './local-time.js';

export interface HaltOptions {
  readonly zones: Readonly<Record<HaltExchange, IANAZone>>;
  readonly decimal: DecimalType;
}

export function normalizeHalt(raw: RawHalt, options: HaltOptions): HaltRow | FieldError {
  const shape = haltRecordShapeError(raw.record);
  if (shape) return shape;
  const r = raw.record;
  const zone = options.zones[raw.exchange];
  const symbol = symbolText(r);
  if (typeof symbol !== 'string') return symbol;
  const published = requiredText(r, 'publishDate');
  if (typeof published !== 'string') return published;
  const publishedAt = parseLocalDateTime(published, zone);
  if (typeof publishedAt !== 'number') return { field: 'publishDate', value: published, failure: publishedAt };

  const sse = raw.exchange === 'sse';
  const halt = readInstant(r, zone, sse ? { date: 'haltDate', time: 'haltTime' } : { dateTime: 'haltDateTime', date: 'haltDate', time: 'haltTime' });
  if (isFieldError(halt)) return halt;

  let quote: LocalInstant = { at: null, local: null };
  let trade: LocalInstant;
  if (raw.exchange === 'nasdaq') {
    const t = readInstant(r, zone, { dateTime: 'resumeDateTime', date: '', time: '' });
    if (isFieldError(t)) return t;
    trade = t;
    const q = readInstant(quoteDated(r, t.local), zone, { date: 'resumeDate', time: 'resumeTime' });
    if (isFieldError(q)) return q;
    quote = q;
  } else {
    const t = readInstant(r, zone, sse ? { date: 'resumeDate', time: 'resumeTime' } : { dateTime: 'resumeDateTime', date: 'resumeDate', time: 'resumeTime' });
    if (isFieldError(t)) return t;
    trade = t;
  }

  let pause: string | null = null;
  if (raw.exchange === 'nasdaq') {
    const p = text(r, 'pauseThresholdPrice');
    if (p !== null) {
      const c = canonicalDecimal(p, options.decimal);
      if (typeof c !== 'string') return { field: 'pauseThresholdPrice', value: p, failure: c };
      pause = c;
    }
  }

  return {
    exchange: raw.exchange,
    symbol,
    name: text(r, 'symbolName'),
    reason: text(r, 'haltReason'),
    period: sse ? text(r, 'haltPeriod') : null,
    halt_at: halt.at,
    halt_local: halt.local,
    resume_quote_at: quote.at,
    resume_trade_at: trade.at,
    resume_local: trade.local ?? quote.local,
    source_exchange: sse ? null : text(r, 'sourceExchange'),
    pause_threshold_price: pause,
    published_at: publishedAt,
    published_local: published,
  };
}

/**
 * The record, with resumeDate taken from resumeDateTime's date (`yyyy-MM-dd HH:mm:ss`) when
 * resumeDate is empty and resumeTime is not after resumeDateTime's time; otherwise as it is
 * (a time without a date is then rejected by name).
 */
function quoteDated(r: WireHaltRecord, tradeLocal: string | null): WireHaltRecord {
  const time = text(r, 'resumeTime');
  if (text(r, 'resumeDate') !== null || time === null || tradeLocal === null || tradeLocal.length !== 19) return r;
  return time <= tradeLocal.slice(11) ? { ...r, resumeDate: tradeLocal.slice(0, 10) } : r;
}
