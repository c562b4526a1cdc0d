/**
 * The JSON of 1m K-line pages, the hot path of a backfill: 500 bars per page, every page new.
 *
 * Bars are written as bytes straight from the price path's scaled integers (no WireKline object,
 * no string per field), oldest first, into one buffer per page sized by the model's bounds. A
 * backfill walks backwards and never asks the same bar twice, so nothing finer than a whole page is
 * cached: caching hour blocks cost an allocation, a copy and an LRU entry per hour and saved no bar.
 * A page of closed bars asked again (the same end and count) is served from a small cache of pages.
 * The text is the one `JSON.stringify` gives for the market's WireKline objects (a test holds it).
 */
import { windowsBackward } from '../../catalog/sessions.js';
import type { Product } from '../../catalog/types.js';
import { asciiBytes, scaledLength, writeBytes, writeScaled } from './ascii-scaled.js';
import { Lru } from './lru.js';
import { MAX_MINUTE_TURNOVER, TICKS_PER_MINUTE, emptyMinuteBar, ticksBy, type MinuteBar, type PricePath } from './price-path.js';

const MINUTE_MS = 60_000;
/** Room for one encoded bar: 105 bytes of names and quotes, 7 numbers of at most 52 bytes. */
const MAX_BAR_BYTES = 512;

const OPEN = asciiBytes('{"timestamp":"');
const OPEN_PRICE = asciiBytes('","open_price":"');
const CLOSE_PRICE = asciiBytes('","close_price":"');
const HIGH_PRICE = asciiBytes('","high_price":"');
const LOW_PRICE = asciiBytes('","low_price":"');
const VOLUME = asciiBytes('","volume":"');
const TURNOVER = asciiBytes('","turnover":"');
const CLOSE = asciiBytes('"},');
const EMPTY_LIST = asciiBytes('[]');
const OPEN_LIST = asciiBytes('[');
const CLOSE_BRACKET = 0x5d; // ]

/** What a page needs to know of one product's model. */
export interface MinuteSeries {
  readonly id: number;
  readonly product: Product;
  readonly path: PricePath;
  readonly listedStartMs: number;
}

/** Writes minute `m`'s bar followed by a comma at `pos`; returns the position after it. */
function writeBar(out: Uint8Array, pos: number, m: number, b: MinuteBar, pd: number, vd: number): number {
  pos = writeBytes(out, pos, OPEN);
  pos = writeScaled(out, pos, m * 60, 0);
  pos = writeBytes(out, pos, OPEN_PRICE);
  pos = writeScaled(out, pos, b.open, pd);
  pos = writeBytes(out, pos, CLOSE_PRICE);
  pos = writeScaled(out, pos, b.close, pd);
  pos = writeBytes(out, pos, HIGH_PRICE);
  pos = writeScaled(out, pos, b.high, pd);
  pos = writeBytes(out, pos, LOW_PRICE);
  pos = writeScaled(out, pos, b.low, pd);
  pos = writeBytes(out, pos, VOLUME);
  pos = writeScaled(out, pos, b.volume, vd);
  pos = writeBytes(out, pos, TURNOVER);
  pos = writeScaled(out, pos, b.turnover, pd + vd);
  return writeBytes(out, pos, CLOSE);
}

const NAME_BYTES = [OPEN, OPEN_PRICE, CLOSE_PRICE, HIGH_PRICE, LOW_PRICE, VOLUME, TURNOVER, CLOSE].reduce((sum, b) => sum + b.length, 0);

/** The most bytes one encoded bar of `series` takes (with its comma), from its model's largest price, volume and turnover. */
export function barBytesBound(series: MinuteSeries): number {
  const pd = series.product.priceDecimals;
  const vd = series.product.volumeDecimals;
  const timestamp = scaledLength(Number.MAX_SAFE_INTEGER, 0);
  const price = scaledLength(series.path.maxPrice, pd);
  const bytes = NAME_BYTES + timestamp + 4 * price + scaledLength(series.path.maxMinuteVolume, vd) + scaledLength(MAX_MINUTE_TURNOVER, pd + vd);
  return Math.min(MAX_BAR_BYTES, bytes);
}

export class MinutePages {
  /** Whole pages of closed bars, for a page asked again (the same series, end and count). */
  private readonly pages: Lru<number, Uint8Array>;
  private readonly bar: MinuteBar = emptyMinuteBar();
  private starts = new Float64Array(512);

  /** `pageEntries`: pages of closed bars kept (about 100 KB each at 500 bars). */
  constructor(pageEntries: number) {
    this.pages = new Lru(pageEntries);
  }

  /**
   * The JSON array of the newest `count` 1m bars of `series` that open before `hiMs` (a minute
   * boundary), ascending, as of nowMs: the same bars as `SyntheticMarket.klines(…, 1, …)`. One
   * buffer of its own, never changed once returned (a page of closed bars is kept for a repeat).
   */
  page(series: MinuteSeries, hiMs: number, count: number, nowMs: number): Uint8Array[] {
    // The minutes of the page, newest first: the same walk as the market's own.
    if (this.starts.length < count) this.starts = new Float64Array(count);
    const starts = this.starts;
    let n = 0;
    outer: for (const w of windowsBackward(series.product.session, hiMs, series.listedStartMs)) {
      for (let t = w.end - MINUTE_MS; t >= w.start; t -= MINUTE_MS) {
        starts[n++] = t;
        if (n >= count) break outer;
      }
    }
    if (n === 0) return [EMPTY_LIST];
    const closedEnd = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
    // Every bar closed: the page is fixed by (series, end, count) and may be kept.
    const key = starts[0]! < closedEnd && count < 1024 && series.id < 1024 ? ((hiMs / MINUTE_MS) * 1024 + count) * 1024 + series.id : undefined;
    if (key !== undefined) {
      const hit = this.pages.get(key);
      if (hit !== undefined) return [hit];
    }
    // Written in place into a buffer the model's bounds make big enough (no copy afterwards);
    // should a bound ever fall short, the page is written again with room for any bar.
    let out = Buffer.allocUnsafe(2 + n * barBytesBound(series));
    let end = this.writePage(out, series, n, closedEnd, nowMs);
    if (end > out.length) {
      out = Buffer.allocUnsafe(2 + n * MAX_BAR_BYTES);
      end = this.writePage(out, series, n, closedEnd, nowMs);
    }
    const bytes = out.subarray(0, end);
    if (key !== undefined) this.pages.set(key, bytes);
    return [bytes];
  }

  /** Writes `[bars]` for the first n of `this.starts`, oldest first; past `out`'s end it stops and returns a position past it. */
  private writePage(out: Uint8Array, series: MinuteSeries, n: number, closedEnd: number, nowMs: number): number {
    const starts = this.starts;
    const pd = series.product.priceDecimals;
    const vd = series.product.volumeDecimals;
    const path = series.path;
    // Oldest first, so the price path's memo walks forward through its cells.
    let pos = writeBytes(out, 0, OPEN_LIST);
    for (let i = n - 1; i >= 0; i--) {
      const t = starts[i]!;
      const m = t / MINUTE_MS;
      const ticks = t >= closedEnd ? ticksBy(t, nowMs) : TICKS_PER_MINUTE; // the forming minute: its ticks so far
      pos = writeBar(out, pos, m, path.minute(m, ticks, this.bar), pd, vd);
      if (pos > out.length) return pos;
    }
    out[pos - 1] = CLOSE_BRACKET; // the last bar's comma closes the list
    return pos;
  }
}
