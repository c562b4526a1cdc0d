/**
 * The service's wire shapes (spec 2): every price, volume, sequence number and timestamp a string.
 * Shared by the emulator, the client and the transforms; they meet only here, at the wire.
 */

/** One K-line on the wire (spec 2.1); `timestamp` is the bar's open time in Unix seconds (W1). */
export interface WireKline {
  timestamp: string;
  open_price: string;
  close_price: string;
  high_price: string;
  low_price: string;
  volume: string;
  turnover: string;
}

export interface WireLevel {
  price: string;
  /** Absent for a CFD index whose book has no volume. */
  volume?: string;
}

export interface WireDepthTick {
  code: string;
  seq: string;
  /** Unix milliseconds (W2). */
  tick_time: string;
  bids: WireLevel[];
  asks: WireLevel[];
}

export interface WireTradeTick {
  code: string;
  seq: string;
  tick_time: string;
  price: string;
  volume: string;
  turnover: string;
  trade_direction: 0 | 1 | 2;
}

export type HaltExchange = 'sse' | 'nyse' | 'nasdaq';

/** Where each exchange's halt times are local (decision S2): the defaults of normalize-halts' `zones`. */
export const HALT_ZONES: Readonly<Record<HaltExchange, string>> = { sse: 'Asia/Shanghai', nyse: 'America/New_York', nasdaq: 'America/New_York' };

/** A halt record in its exchange's layout (S3); nullable fields may be null, "" or absent (S4). */
export type WireHaltRecord = Record<string, string | null>;
