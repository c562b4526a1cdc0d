/**
 * The emulator's deterministic synthetic market: K-lines, latest book and latest trade of every
 * catalog product, as pure functions of (seed, code, time). A closed bar never changes; coarser
 * bars are exact aggregates of the 1m bars (see `price-path.ts` for how a minute is made).
 */
import { barEnd, barStart, listedStartMs } from '../../catalog/bar-grid.js';
import { intradayMinutes, isMultiHourKlineType } from '../../catalog/intervals.js';
import { isTrading, lastWindowAtOrBefore, sessionWindows, windowsBackward } from '../../catalog/sessions.js';
import type { Product } from '../../catalog/types.js';
import { dayNumber, dayNumberOfIsoDate, zoneDay, zoneDayAt } from '../../catalog/zone-days.js';
import type { WireDepthTick, WireKline, WireLevel, WireTradeTick } from '../contracts.js';
import { AggBuilder, type Agg } from './aggregate.js';
import { unit } from '../random/index.js';
import { Lru } from './lru.js';
import { MinutePages } from './minute-pages.js';
import { PricePath, TICK_MS, TICKS_PER_MINUTE, emptyMinuteBar, ticksBy, type MinuteBar } from './price-path.js';
import { formatScaled, formatScaledBig } from './scaled.js';

const MINUTE_MS = 60_000;
/** The book is re-quoted every QUOTE_MS while the session is open. */
export const QUOTE_MS = 500;

/** Classes whose trades are always reported as aggressive buys (spec 2.3). */
const ALWAYS_BUY: ReadonlySet<Product['productClass']> = new Set(['forex', 'metal', 'energy', 'cfd-index', 'commodity']);

/** Spread of the best quotes as a share of the price. */
const REL_SPREAD: Readonly<Record<Product['productClass'], number>> = {
  'us-stock': 0.0001,
  'hk-stock': 0.0004,
  'cn-stock': 0.0005,
  index: 0.0001,
  forex: 0.00002,
  metal: 0.0001,
  energy: 0.0002,
  crypto: 0.00003,
  'cfd-index': 0.0001,
  commodity: 0.0005,
};

interface Model {
  readonly id: number;
  readonly product: Product;
  readonly path: PricePath;
  readonly listedDay: number;
  readonly listedStartMs: number;
}

const EMPTY = Symbol('empty');

/** A bar's aggregate, with its wire form memoised once the bar is closed. */
interface Cell {
  readonly startMs: number;
  readonly agg: Agg;
  wire?: WireKline;
}

/** Cache kinds, part of the numeric cache key. */
const KIND_DAY = 1;
const KIND_WEEK = 2;
const KIND_MONTH = 3;
const intradayKind = (minutes: number): number => 4 + [5, 15, 30, 60, 120, 240].indexOf(minutes);

/**
 * Numeric cache key (cheaper than strings on the hot path): cell start in minutes x 2^24 + kind x 2^20
 * + model id; unique for any start minute within +-2^28 (year 1459..2480).
 */
function cellKey(modelId: number, kind: number, startMs: number): number {
  return (startMs / MINUTE_MS) * 16_777_216 + kind * 1_048_576 + modelId;
}

export interface SyntheticMarketOptions {
  /** Bound of the cache of closed aggregates (days, weeks, months, intraday cells). */
  cacheEntries?: number;
  /** Bound of the cache of closed 1m bars as objects (`klines`), in blocks of 60 minutes. */
  minuteBlockEntries?: number;
  /** Bound of the cache of whole 1m pages of closed bars encoded for /kline (`klineListJson`, about 100 KB per 500-bar page). */
  minutePageEntries?: number;
}

export interface LatestTrade {
  /** Minute (since the epoch) and tick index of the latest trade. */
  minute: number;
  tick: number;
  /** Scaled integers. */
  price: number;
  volume: number;
  tickTime: number;
  direction: 0 | 1 | 2;
  /** When the book was last quoted (ms). */
  quoteTime: number;
  sessionOpen: boolean;
}

export class SyntheticMarket {
  private readonly models = new WeakMap<Product, Model>();
  private nextModelId = 1;
  private readonly cache: Lru<number, Cell | typeof EMPTY>;
  private readonly scratch: MinuteBar = emptyMinuteBar();
  /** Closed 1m bars on the wire, in blocks of 60 minutes (sparse: only trading minutes asked for). */
  private readonly minuteBlocks: Lru<number, Array<WireKline | undefined>>;
  /** Aggregates of the closed minutes of a still-open range, so a forming day extends instead of recomputing. */
  private readonly prefixes = new Lru<number, { upto: number; agg: Agg | null }>(4096);
  /** 1m pages as bytes, written straight from the price path. */
  private readonly minutePages: MinutePages;

  constructor(
    readonly seed: number,
    options: SyntheticMarketOptions = {},
  ) {
    if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer: ${seed}`);
    this.cache = new Lru(options.cacheEntries ?? 200_000);
    this.minuteBlocks = new Lru(options.minuteBlockEntries ?? 1500);
    this.minutePages = new MinutePages(options.minutePageEntries ?? 64);
  }

  /**
   * K-lines of one product, ascending (W3), stamped at the open of their grid cell (W1, W12).
   * endSec 0 = the newest `count` bars as of nowMs; endSec > 0 = the newest `count` bars with
   * timestamp <= endSec (W4). The bar containing nowMs is forming: it covers trades up to nowMs.
   * Closed bars come from caches and are shared, frozen objects: copy before changing one.
   * Throws RangeError for impossible input (type outside 1..10, 2h/4h on a product without them,
   * negative endSec, count < 1, non-finite now); request validation (W4-W6) is the caller's job.
   */
  klines(product: Product, klineType: number, endSec: number, count: number, nowMs: number): WireKline[] {
    checkKlineArgs(product, klineType, endSec, count, nowMs);
    const model = this.model(product);
    const limitMs = endSec > 0 ? Math.min(endSec * 1000, nowMs) : nowMs;
    if (limitMs < model.listedStartMs) return [];
    if (klineType === 1) return this.minuteBars(model, limitMs, count, nowMs);
    const minutes = intradayMinutes(klineType);
    if (minutes !== undefined) return this.intradayBars(model, klineType, minutes, limitMs, count, nowMs);
    if (klineType === 8) return this.dayBars(model, limitMs, count, nowMs);
    if (klineType === 9) return this.weekBars(model, limitMs, count, nowMs);
    return this.monthBars(model, limitMs, count, nowMs);
  }

  /**
   * `JSON.stringify(klines(…))` as bytes in pieces (concatenated in order), for the 1m bars that
   * backfills ask for by the thousand (see minute-pages.ts); undefined for other types (the caller
   * serialises `klines` instead). The pieces are shared: never write into them.
   */
  klineListJson(product: Product, klineType: number, endSec: number, count: number, nowMs: number): readonly Uint8Array[] | undefined {
    checkKlineArgs(product, klineType, endSec, count, nowMs);
    if (klineType !== 1) return undefined;
    const model = this.model(product);
    const limitMs = endSec > 0 ? Math.min(endSec * 1000, nowMs) : nowMs;
    const nowMinuteEnd = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    const hi = limitMs < model.listedStartMs ? model.listedStartMs : Math.min(Math.floor(limitMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS, nowMinuteEnd);
    return this.minutePages.page(model, hi, count, nowMs);
  }

  /** The latest order book (spec 2.2) as of nowMs. */
  depth(product: Product, nowMs: number): WireDepthTick {
    const model = this.model(product);
    const t = this.latestTrade(product, nowMs);
    const path = model.path;
    const pd = product.priceDecimals;
    const vd = product.volumeDecimals;
    const q = Math.floor(t.quoteTime / QUOTE_MS);
    const h = (i: number): number => unit(path.key, 9, q, i);
    const p = t.price;
    const spread = Math.max(1, Math.round(p * REL_SPREAD[product.productClass] * (0.6 + 0.8 * h(0))));
    let bid0: number;
    let ask0: number;
    if (t.direction === 1) {
      ask0 = p;
      bid0 = p - spread;
    } else if (t.direction === 2) {
      bid0 = p;
      ask0 = p + spread;
    } else {
      const below = Math.max(1, Math.round(spread * h(1)));
      bid0 = p - below;
      ask0 = p + Math.max(1, spread - below);
    }
    let levels = product.depthLevels;
    // An inactive product shows a thinner book (spec 2.2).
    if (path.quietShare > 0) levels = 1 + Math.floor(h(2) * product.depthLevels);
    const level = (price: number, i: number, side: number): WireLevel => {
      if (!product.bookHasVolume) return { price: formatScaled(price, pd) };
      const v = Math.max(1, Math.round(path.baseVolume * (0.3 + 3 * h(10 + side * 100 + i))));
      return { price: formatScaled(price, pd), volume: formatScaled(v, vd) };
    };
    const bids: WireLevel[] = [];
    const asks: WireLevel[] = [];
    const step = Math.max(1, Math.round(spread / 2));
    if (product.limitLock !== 'down') {
      let price = product.limitLock === 'up' ? p : bid0;
      for (let i = 0; i < levels && price >= 1; i++) {
        bids.push(level(price, i, 0));
        price -= step * (1 + Math.floor(h(300 + i) * 2));
      }
    }
    if (product.limitLock !== 'up') {
      let price = product.limitLock === 'down' ? p : ask0;
      for (let i = 0; i < levels; i++) {
        asks.push(level(price, i, 1));
        price += step * (1 + Math.floor(h(400 + i) * 2));
      }
    }
    return { code: product.code, seq: String(q), tick_time: String(t.quoteTime), bids, asks };
  }

  /** The latest trade (spec 2.3) as of nowMs; outside sessions, the last trade of the last session. */
  trade(product: Product, nowMs: number): WireTradeTick {
    const t = this.latestTrade(product, nowMs);
    const pd = product.priceDecimals;
    const vd = product.volumeDecimals;
    return {
      code: product.code,
      seq: String(Math.floor(t.tickTime / TICK_MS)),
      tick_time: String(t.tickTime),
      price: formatScaled(t.price, pd),
      volume: formatScaled(t.volume, vd),
      turnover: formatScaledBig(BigInt(t.price) * BigInt(t.volume), pd + vd),
      trade_direction: t.direction,
    };
  }

  /** The latest trade as scaled integers (shared by `trade` and `depth`). */
  latestTrade(product: Product, nowMs: number): LatestTrade {
    if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be finite: ${nowMs}`);
    const model = this.model(product);
    const path = model.path;
    let minute: number;
    let tick: number;
    let quoteTime: number;
    let sessionOpen = false;
    if (isTrading(product.session, nowMs)) {
      sessionOpen = true;
      minute = Math.floor(nowMs / MINUTE_MS);
      tick = Math.min(TICKS_PER_MINUTE - 1, Math.floor((nowMs - minute * MINUTE_MS) / TICK_MS));
      quoteTime = Math.floor(nowMs / QUOTE_MS) * QUOTE_MS;
    } else {
      const w = lastWindowAtOrBefore(product.session, nowMs);
      const end = w === null ? Math.floor(nowMs / MINUTE_MS) * MINUTE_MS : w.end;
      minute = end / MINUTE_MS - 1;
      tick = TICKS_PER_MINUTE - 1;
      quoteTime = end - QUOTE_MS;
    }
    const bar = path.minute(minute, tick + 1, this.scratch);
    const price = bar.close;
    const quiet = bar.quiet;
    const volume = quiet ? 0 : path.tickVolume(minute, tick);
    let direction: 0 | 1 | 2;
    if (ALWAYS_BUY.has(product.productClass)) direction = 1;
    else if (product.limitLock === 'up') direction = 1;
    else if (product.limitLock === 'down') direction = 2;
    else if (quiet) direction = 0;
    else {
      // About one trade in five executes inside the spread (neutral); the rest follow the price move.
      const prev = tick > 0 ? path.priceAt(minute, tick - 1) : path.priceAt(minute - 1, TICKS_PER_MINUTE - 1);
      if (unit(path.key, 4, minute * TICKS_PER_MINUTE + tick, 0) < 0.2) direction = 0;
      else direction = price > prev ? 1 : price < prev ? 2 : 0;
    }
    return { minute, tick, price, volume, tickTime: minute * MINUTE_MS + tick * TICK_MS, direction, quoteTime, sessionOpen };
  }

  private model(product: Product): Model {
    let m = this.models.get(product);
    if (m === undefined) {
      const listedDay = dayNumberOfIsoDate(product.listedSince);
      m = {
        id: this.nextModelId++ % 1_048_576,
        product,
        path: new PricePath(this.seed, product),
        listedDay,
        listedStartMs: listedStartMs(product),
      };
      this.models.set(product, m);
    }
    return m;
  }

  private minuteBars(model: Model, limitMs: number, count: number, nowMs: number): WireKline[] {
    const nowMinuteEnd = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    const hi = Math.min(Math.floor(limitMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS, nowMinuteEnd);
    const starts: number[] = [];
    outer: for (const w of windowsBackward(model.product.session, hi, model.listedStartMs)) {
      for (let t = w.end - MINUTE_MS; t >= w.start; t -= MINUTE_MS) {
        starts.push(t);
        if (starts.length >= count) break outer;
      }
    }
    const out: WireKline[] = new Array<WireKline>(starts.length);
    const closedEnd = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
    let blockNo = Number.NaN;
    let block: Array<WireKline | undefined> | undefined;
    for (let i = starts.length - 1, j = 0; i >= 0; i--, j++) {
      const t = starts[i]!;
      const m = t / MINUTE_MS;
      if (t >= closedEnd) {
        out[j] = this.minuteWire(model, m, ticksBy(t, nowMs));
        continue;
      }
      const bn = Math.floor(m / 60);
      if (bn !== blockNo) {
        blockNo = bn;
        const key = bn * 1_048_576 + model.id;
        block = this.minuteBlocks.get(key);
        if (block === undefined) {
          block = new Array<WireKline | undefined>(60);
          this.minuteBlocks.set(key, block);
        }
      }
      const slot = m - bn * 60;
      let k = block![slot];
      if (k === undefined) {
        k = Object.freeze(this.minuteWire(model, m, TICKS_PER_MINUTE));
        block![slot] = k;
      }
      out[j] = k;
    }
    return out;
  }

  private minuteWire(model: Model, m: number, ticks: number): WireKline {
    const pd = model.product.priceDecimals;
    const vd = model.product.volumeDecimals;
    const b = model.path.minute(m, ticks, this.scratch);
    return {
      timestamp: String(m * 60),
      open_price: formatScaled(b.open, pd),
      close_price: formatScaled(b.close, pd),
      high_price: formatScaled(b.high, pd),
      low_price: formatScaled(b.low, pd),
      volume: formatScaled(b.volume, vd),
      turnover: formatScaled(b.turnover, pd + vd),
    };
  }

  private intradayBars(model: Model, klineType: number, minutes: number, limitMs: number, count: number, nowMs: number): WireKline[] {
    const product = model.product;
    const cellStart = (ms: number): number => barStart(product, klineType, ms);
    const cellEnd = (start: number): number => barEnd(product, klineType, start);
    const nowMinuteEnd = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    const hi = Math.min(cellEnd(cellStart(limitMs)), nowMinuteEnd);
    const cells: number[] = [];
    outer: for (const w of windowsBackward(model.product.session, hi, model.listedStartMs)) {
      let c = cellStart(w.end - 1);
      for (;;) {
        if (c !== cells[cells.length - 1]) {
          cells.push(c);
          if (cells.length >= count) break outer;
        }
        if (c <= w.start) break;
        c = cellStart(c - 1);
      }
    }
    const out: WireKline[] = [];
    const kind = intradayKind(minutes);
    for (let i = cells.length - 1; i >= 0; i--) {
      const c = cells[i]!;
      const cell = this.rangeCell(model, kind, c, cellEnd(c), nowMs);
      if (cell !== null) out.push(this.wireOf(model.product, cell));
    }
    return out;
  }

  private dayBars(model: Model, limitMs: number, count: number, nowMs: number): WireKline[] {
    const zone = model.product.gridZone;
    const found: Cell[] = [];
    for (let d = zoneDayAt(zone, limitMs).day; d >= model.listedDay && found.length < count; d--) {
      const cell = this.dayCell(model, d, nowMs);
      if (cell !== null) found.push(cell);
    }
    return this.wires(model, found);
  }

  private weekBars(model: Model, limitMs: number, count: number, nowMs: number): WireKline[] {
    const top = zoneDayAt(model.product.gridZone, limitMs);
    const found: Cell[] = [];
    for (let ws = top.day - (top.weekday - 1); ws + 6 >= model.listedDay && found.length < count; ws -= 7) {
      const cell = this.periodCell(model, KIND_WEEK, ws, ws + 7, nowMs);
      if (cell !== null) found.push(cell);
    }
    return this.wires(model, found);
  }

  private monthBars(model: Model, limitMs: number, count: number, nowMs: number): WireKline[] {
    const top = zoneDayAt(model.product.gridZone, limitMs);
    const found: Cell[] = [];
    let y = top.year;
    let mo = top.month;
    for (;;) {
      const d0 = dayNumber(y, mo, 1);
      const d1 = dayNumber(y, mo + 1, 1);
      if (d1 - 1 < model.listedDay || found.length >= count) break;
      const cell = this.periodCell(model, KIND_MONTH, d0, d1, nowMs);
      if (cell !== null) found.push(cell);
      mo -= 1;
      if (mo === 0) {
        mo = 12;
        y -= 1;
      }
    }
    return this.wires(model, found);
  }

  /** Newest-first cells to ascending wire bars. */
  private wires(model: Model, newestFirst: Cell[]): WireKline[] {
    const out = new Array<WireKline>(newestFirst.length);
    for (let i = newestFirst.length - 1, j = 0; i >= 0; i--, j++) out[j] = this.wireOf(model.product, newestFirst[i]!);
    return out;
  }

  private wireOf(product: Product, cell: Cell): WireKline {
    return cell.wire ?? wire(product, cell.startMs, cell.agg);
  }

  private lookup(key: number): Cell | null | undefined {
    const hit = this.cache.get(key);
    return hit === undefined ? undefined : hit === EMPTY ? null : hit;
  }

  /** Store a closed cell, with its wire form computed once. */
  private store(model: Model, key: number, startMs: number, agg: Agg | null): Cell | null {
    if (agg === null) {
      this.cache.set(key, EMPTY);
      return null;
    }
    const cell: Cell = { startMs, agg, wire: Object.freeze(wire(model.product, startMs, agg)) };
    this.cache.set(key, cell);
    return cell;
  }

  /** The days [d0, d1) of the grid zone as one bar stamped at d0's midnight; cached once closed. */
  private periodCell(model: Model, kind: number, d0: number, d1: number, nowMs: number): Cell | null {
    const zone = model.product.gridZone;
    const startMs = zoneDay(zone, d0).startMs;
    if (startMs > nowMs) return null;
    const closed = zoneDay(zone, d1).startMs <= nowMs;
    const key = cellKey(model.id, kind, startMs);
    if (closed) {
      const hit = this.lookup(key);
      if (hit !== undefined) return hit;
    }
    const b = new AggBuilder();
    for (let d = Math.max(d0, model.listedDay); d < d1; d++) {
      const c = this.dayCell(model, d, nowMs);
      if (c !== null) b.addAgg(c.agg);
    }
    const agg = b.build();
    if (closed) return this.store(model, key, startMs, agg);
    return agg === null ? null : { startMs, agg };
  }

  private dayCell(model: Model, d: number, nowMs: number): Cell | null {
    const zd = zoneDay(model.product.gridZone, d);
    if (zd.startMs > nowMs || zd.endMs <= model.listedStartMs) return null;
    return this.rangeCell(model, KIND_DAY, zd.startMs, zd.endMs, nowMs);
  }

  /** The 1m bars in [startMs, endMs) up to nowMs as one bar; cached once the range has ended. */
  private rangeCell(model: Model, kind: number, startMs: number, endMs: number, nowMs: number): Cell | null {
    const key = cellKey(model.id, kind, startMs);
    if (endMs <= nowMs) {
      const hit = this.lookup(key);
      if (hit !== undefined) return hit;
      return this.store(model, key, startMs, this.sumMinutes(model, new AggBuilder(), startMs, endMs, nowMs).build());
    }
    // Still open: closed minutes come from (and extend) a remembered prefix; the forming minute is added last.
    const closedEnd = Math.max(startMs, Math.min(endMs, Math.floor(nowMs / MINUTE_MS) * MINUTE_MS));
    const prefix = this.prefixes.get(key);
    const b = new AggBuilder();
    let from = startMs;
    if (prefix !== undefined && prefix.upto <= closedEnd) {
      if (prefix.agg !== null) b.addAgg(prefix.agg);
      from = prefix.upto;
    }
    this.sumMinutes(model, b, from, closedEnd, nowMs);
    this.prefixes.set(key, { upto: closedEnd, agg: b.build() });
    this.sumMinutes(model, b, closedEnd, endMs, nowMs);
    const agg = b.build();
    return agg === null ? null : { startMs, agg };
  }

  /** Adds the trading minutes of [fromMs, toMs) that have started by nowMs to `b`. */
  private sumMinutes(model: Model, b: AggBuilder, fromMs: number, toMs: number, nowMs: number): AggBuilder {
    const nowMinuteEnd = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    const path = model.path;
    const ws = sessionWindows(model.product.session, Math.max(fromMs, model.listedStartMs), Math.min(toMs, nowMinuteEnd));
    const closedEnd = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
    for (const w of ws) {
      const fullEnd = Math.min(w.end, closedEnd);
      if (fullEnd > w.start) path.sumClosedMinutes(w.start / MINUTE_MS, fullEnd / MINUTE_MS, b);
      for (let t = Math.max(w.start, closedEnd); t < w.end; t += MINUTE_MS) {
        b.addMinute(path.minute(t / MINUTE_MS, ticksBy(t, nowMs), this.scratch));
      }
    }
    return b;
  }
}

/** Throws RangeError for impossible K-line arguments (see `klines`). */
function checkKlineArgs(product: Product, klineType: number, endSec: number, count: number, nowMs: number): void {
  if (!Number.isInteger(klineType) || klineType < 1 || klineType > 10) throw new RangeError(`kline_type must be 1..10: ${klineType}`);
  if (isMultiHourKlineType(klineType) && !product.supportsMultiHourBars) {
    throw new RangeError(`kline_type ${klineType} is not served for ${product.code}`);
  }
  if (!Number.isInteger(endSec) || endSec < 0) throw new RangeError(`endSec must be an integer >= 0: ${endSec}`);
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be an integer >= 1: ${count}`);
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be finite: ${nowMs}`);
}

function wire(product: Product, startMs: number, a: Agg): WireKline {
  const pd = product.priceDecimals;
  const vd = product.volumeDecimals;
  return {
    timestamp: String(Math.floor(startMs / 1000)),
    open_price: formatScaled(a.open, pd),
    close_price: formatScaled(a.close, pd),
    high_price: formatScaled(a.high, pd),
    low_price: formatScaled(a.low, pd),
    volume: formatScaledBig(a.volume, vd),
    turnover: formatScaledBig(a.turnover, pd + vd),
  };
}
