/**
 * The records that flow through a pipeline: raw records as sources emit them (every value still
 * the wire's string), and the typed rows of the four datasets after the transforms. Row keys are
 * the dataset's column names (snake_case), so sinks map them one to one.
 */
import type { DecimalString } from './decimal.js';
import type { RecordFlaw } from './record-flaw.js';
import type { HaltExchange, WireDepthTick, WireHaltRecord, WireKline, WireTradeTick } from './wire.js';

export type Interval = '1m' | '5m' | '15m' | '30m' | '1h' | '2h' | '4h' | '1d' | '1w' | '1mo';

export const INTERVALS: readonly Interval[] = ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '1d', '1w', '1mo'];

/** Intervals whose bars are partitioned by year rather than by day. */
export const LONG_INTERVALS: ReadonlySet<Interval> = new Set<Interval>(['1d', '1w', '1mo']);

export type Dataset = 'kline' | 'trade' | 'depth' | 'halt';

export const DATASETS: readonly Dataset[] = ['kline', 'trade', 'depth', 'halt'];

export interface RawKline {
  readonly code: string;
  readonly interval: Interval;
  readonly bar: WireKline;
  /** false while the bar is still forming (the newest bar of a latest-bars request). */
  readonly final: boolean;
  /** The endpoint that served it, e.g. `/kline` or `/batch-kline`. */
  readonly source: string;
  /** Set by the source when the record is already known bad: parse-decimals rejects it with this. */
  readonly flaw?: RecordFlaw;
}

export interface RawTrade {
  readonly tick: WireTradeTick;
  readonly fetchedAtMs: number;
  /** The endpoint asked, as called (e.g. `/quote-b-api/trade-tick`). */
  readonly source?: string | undefined;
  readonly flaw?: RecordFlaw;
}

export interface RawDepth {
  readonly tick: WireDepthTick;
  readonly fetchedAtMs: number;
  /** The endpoint asked, as called (e.g. `/quote-stock-b-api/depth-tick`). */
  readonly source?: string | undefined;
  readonly flaw?: RecordFlaw;
}

export interface RawHalt {
  readonly exchange: HaltExchange;
  readonly record: WireHaltRecord;
  readonly fetchedAtMs: number;
  /** What the source found wrong with the record (see record-flaw.ts); normalize-halts rejects it. */
  readonly flaw?: RecordFlaw;
}

/** Instants are epoch milliseconds (UTC); decimals canonical text (see decimal.ts). */
export interface KlineRow {
  readonly code: string;
  readonly interval: Interval;
  /** Bar open time. */
  readonly ts: number;
  readonly open: DecimalString;
  readonly high: DecimalString;
  readonly low: DecimalString;
  readonly close: DecimalString;
  readonly volume: DecimalString;
  readonly turnover: DecimalString;
  readonly final: boolean;
  /** Not a column: written to the file metadata as `quotelake.source_endpoint`. */
  readonly source?: string | undefined;
}

export interface TradeRow {
  readonly code: string;
  readonly ts: number;
  /** The wire's digits, kept exact as text. */
  readonly seq: string;
  readonly price: DecimalString;
  readonly volume: DecimalString;
  readonly turnover: DecimalString;
  readonly direction: 0 | 1 | 2;
  readonly fetched_at: number;
  /** Not a column: written to the file metadata as `quotelake.source_endpoint`. */
  readonly source?: string | undefined;
}

export interface DepthLevelRow {
  readonly price: DecimalString;
  /** null for a book without volume (CFD index). */
  readonly volume: DecimalString | null;
}

export interface DepthRow {
  readonly code: string;
  readonly ts: number;
  readonly seq: string;
  readonly fetched_at: number;
  readonly bids: readonly DepthLevelRow[];
  readonly asks: readonly DepthLevelRow[];
  /** Not a column: written to the file metadata as `quotelake.source_endpoint`. */
  readonly source?: string | undefined;
}

export interface HaltRow {
  readonly exchange: HaltExchange;
  readonly symbol: string;
  readonly name: string | null;
  readonly reason: string | null;
  readonly period: string | null;
  readonly halt_at: number | null;
  /** Exchange-local `yyyy-MM-dd HH:mm:ss` as the exchange gave it (date and time joined for SSE); the date alone, `yyyy-MM-dd`, for an SSE halt of a whole day (no time given: `halt_at` is null). */
  readonly halt_local: string | null;
  readonly resume_quote_at: number | null;
  readonly resume_trade_at: number | null;
  readonly resume_local: string | null;
  readonly source_exchange: string | null;
  readonly pause_threshold_price: DecimalString | null;
  readonly published_at: number;
  readonly published_local: string;
}

export interface DatasetRows {
  kline: KlineRow;
  trade: TradeRow;
  depth: DepthRow;
  halt: HaltRow;
}
