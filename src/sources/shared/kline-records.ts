/**
 * One page of K-lines from the wire to raw records: de-duplicated by timestamp, ascending (W3: the
 * service's order is not relied on), each marked final or forming against the time of the answer.
 */
import type { Product } from '../../catalog/index.js';
import type { Interval, RawKline } from '../../core/records.js';
import type { WireKline } from '../../core/wire.js';
import { isFinalBar } from './bar-grid.js';

export interface KlinePage {
  /** Bars with a valid timestamp, ascending, unique. */
  readonly bars: readonly { readonly ts: number; readonly bar: WireKline }[];
  /** Bars whose timestamp is not Unix seconds: passed on so parse-decimals rejects them by name. */
  readonly malformed: readonly WireKline[];
}

export function pageOf(bars: readonly WireKline[]): KlinePage {
  const byTs = new Map<number, WireKline>();
  const malformed: WireKline[] = [];
  for (const bar of bars) {
    const ts = /^\d{1,12}$/.test(bar.timestamp) ? Number(bar.timestamp) : Number.NaN;
    if (!Number.isSafeInteger(ts)) malformed.push(bar);
    else byTs.set(ts, bar); // a repeated timestamp: the later copy wins
  }
  const sorted = [...byTs.entries()].sort((a, b) => a[0] - b[0]).map(([ts, bar]) => ({ ts, bar }));
  return { bars: sorted, malformed };
}

export function toRawKlines(
  product: Product,
  interval: Interval,
  bars: readonly { readonly ts: number; readonly bar: WireKline }[],
  answeredAtMs: number,
  source: string,
): RawKline[] {
  return bars.map(({ ts, bar }) => ({
    code: product.code,
    interval,
    bar,
    final: isFinalBar(product, interval, ts * 1000, answeredAtMs),
    source,
  }));
}

export function malformedRecords(code: string, interval: Interval, bars: readonly WireKline[], source: string): RawKline[] {
  return bars.map((bar) => ({ code, interval, bar, final: false, source }));
}

/** Stream key of a series. */
export function klineStream(code: string, interval: Interval): string {
  return `kline/${code}/${interval}`;
}
