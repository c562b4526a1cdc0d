/**
 * The JSON of 1m K-line pages, the hot path of a backfill: 500 bars per page, every page new.
 *
 * Bars are written as bytes straight from the price path's scaled integers (no WireKline object,
 * no string per field), and closed bars are cached as encoded hour blocks: one buffer per
 * (product, hour) holding `{bar},` for each of its trading minutes, with offsets per minute. A page
 * is then a few views of byte ranges; a walk backwards over history generates every bar once (the
 * block a page ends in is the block the next page starts in), and a repeated page generates nothing.
 * The text is the one `JSON.stringify` gives for the market's WireKline objects (a test holds it).
 */
import { sessionWindows, windowsBackward } from '../../catalog/sessions.js';
import type { Product } from '../../catalog/types.js';
import { asciiBytes, writeBytes, writeScaled } from './ascii-scaled.js';
import { Lru } from './lru.js';
import { TICKS_PER_MINUTE, emptyMinuteBar, ticksBy, type MinuteBar, type PricePath } from './price-path.js';

const MINUTE_MS = 60_000;
const BLOCK_MINUTES = 60;
const BLOCK_MS = BLOCK_MINUTES * MINUTE_MS;
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
const CLOSE_LIST = asciiBytes(']');

/** What a page needs to know of one product's model. */
export interface MinuteSeries {
  readonly id: number;
  readonly product: Product;
  readonly path: PricePath;
  readonly listedStartMs: number;
}

/** One hour of closed 1m bars, encoded: minute i is bytes[offs[i], offs[i+1]) (empty when it did not trade). */
interface Block {
  readonly bytes: Buffer;
  readonly offs: Int32Array;
  /** Minutes before this instant are in the block; later ones had not closed when it was built. */
  readonly closedTo: number;
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

export class MinutePages {
  private readonly blocks: Lru<number, Block>;
  private readonly bar: MinuteBar = emptyMinuteBar();
  private readonly blockScratch = Buffer.allocUnsafe(BLOCK_MINUTES * MAX_BAR_BYTES);
  private readonly barScratch = Buffer.allocUnsafe(MAX_BAR_BYTES);
  private starts = new Float64Array(512);

  /** `blockEntries`: hours of encoded bars kept (about 10 KB each for a 24/7 product). */
  constructor(blockEntries: number) {
    this.blocks = new Lru(blockEntries);
  }

  /**
   * The JSON array of the newest `count` 1m bars of `series` that open before `hiMs` (a minute
   * boundary), ascending, as of nowMs: the same bars as `SyntheticMarket.klines(…, 1, …)`. Returned
   * in pieces to write one after the other: views of the cached blocks (never changed once built),
   * so a page costs no copy and no new buffer but the forming bar's.
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
    const pieces: Uint8Array[] = [OPEN_LIST];
    let blockNo = Number.NaN;
    let block: Block | undefined;
    // The run being gathered: bytes [from, to) of src.
    let src: Uint8Array | undefined;
    let from = 0;
    let to = 0;
    for (let i = n - 1; i >= 0; i--) {
      const t = starts[i]!;
      let bytes: Uint8Array;
      let a: number;
      let b: number;
      if (t >= closedEnd) {
        bytes = this.loose(series, t, ticksBy(t, nowMs)); // the forming minute: never cached
        a = 0;
        b = bytes.length;
      } else {
        const bn = Math.floor(t / BLOCK_MS);
        if (bn !== blockNo || t >= block!.closedTo) {
          blockNo = bn;
          block = this.block(series, bn, closedEnd);
        }
        const slot = (t - bn * BLOCK_MS) / MINUTE_MS;
        bytes = block!.bytes;
        a = block!.offs[slot]!;
        b = block!.offs[slot + 1]!;
        if (a === b) {
          // Not in the block (its calendar and the walk disagree): encoded on its own.
          bytes = this.loose(series, t, TICKS_PER_MINUTE);
          a = 0;
          b = bytes.length;
        }
      }
      // Consecutive minutes of one block are consecutive bytes: one piece for the run.
      if (bytes === src && a === to) to = b;
      else {
        if (src !== undefined) pieces.push(src.subarray(from, to));
        src = bytes;
        from = a;
        to = b;
      }
    }
    pieces.push(src!.subarray(from, to - 1), CLOSE_LIST); // the last bar without its comma
    return pieces;
  }

  /** One bar with its comma, in a buffer of its own. */
  private loose(series: MinuteSeries, t: number, ticks: number): Uint8Array {
    const m = t / MINUTE_MS;
    const bar = series.path.minute(m, ticks, this.bar);
    const end = writeBar(this.barScratch, 0, m, bar, series.product.priceDecimals, series.product.volumeDecimals);
    return Buffer.from(this.barScratch.subarray(0, end));
  }

  /** The encoded closed minutes of hour `bn` (cached; rebuilt once more of it has closed). */
  private block(series: MinuteSeries, bn: number, closedEnd: number): Block {
    const key = bn * 1_048_576 + series.id;
    const b0 = bn * BLOCK_MS;
    const closedTo = Math.min(b0 + BLOCK_MS, closedEnd);
    const hit = this.blocks.get(key);
    if (hit !== undefined && hit.closedTo >= closedTo) return hit;
    const out = this.blockScratch;
    const offs = new Int32Array(BLOCK_MINUTES + 1);
    const pd = series.product.priceDecimals;
    const vd = series.product.volumeDecimals;
    const path = series.path;
    let pos = 0;
    let slot = 0;
    for (const w of sessionWindows(series.product.session, Math.max(b0, series.listedStartMs), closedTo)) {
      for (let t = Math.ceil(w.start / MINUTE_MS) * MINUTE_MS; t < w.end; t += MINUTE_MS) {
        const s = (t - b0) / MINUTE_MS;
        while (slot <= s) offs[slot++] = pos;
        const m = t / MINUTE_MS;
        pos = writeBar(out, pos, m, path.minute(m, TICKS_PER_MINUTE, this.bar), pd, vd);
      }
    }
    while (slot <= BLOCK_MINUTES) offs[slot++] = pos;
    const block: Block = { bytes: Buffer.from(out.subarray(0, pos)), offs, closedTo };
    this.blocks.set(key, block);
    return block;
  }
}
