/**
 * The price and volume of one product as a direct function of time: no history is replayed.
 *
 * Log-price = sum over 11 scales (4 minutes .. ~8 years) of piecewise-linear hashed noise whose
 * amplitude grows like sqrt(scale) (a random walk's signature) up to a cap, plus a small per-tick
 * jitter. Each minute has TICKS_PER_MINUTE trades at fixed offsets; a 1m bar is the OHLC of its
 * ticks, so any bar (closed or forming) can be computed from its minute alone.
 */
import type { Product } from '../../catalog/types.js';
import type { AggBuilder } from './aggregate.js';
import { fnv1a, hash32, symmetric, unit } from '../random/index.js';
import { parseScaled } from './scaled.js';

export const TICKS_PER_MINUTE = 4;
export const TICK_MS = 60_000 / TICKS_PER_MINUTE;

/** Ticks of the minute starting at t (ms) that have happened by nowMs (t <= nowMs). */
export function ticksBy(t: number, nowMs: number): number {
  if (t + 60_000 <= nowMs) return TICKS_PER_MINUTE;
  return Math.min(TICKS_PER_MINUTE, Math.floor((nowMs - t) / TICK_MS) + 1);
}

const SCALES = [4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304] as const;
const FINEST = SCALES[0];
const AMP_CAP = 0.15;
/** Largest per-minute turnover (scaled integer) allowed, so sums stay exact in a float before spilling. */
export const MAX_MINUTE_TURNOVER = 2 ** 50;

interface ClassParams {
  /** Per-minute log volatility. */
  sigma: number;
  /** Typical traded notional per tick (quote currency), or a fixed quantity per tick. */
  notionalPerTick?: number;
  unitsPerTick?: number;
  /** Share of minutes without a trade. */
  quietShare: number;
}

const CLASS_PARAMS: Record<Product['productClass'], ClassParams> = {
  'us-stock': { sigma: 0.001, notionalPerTick: 1.5e6, quietShare: 0 },
  'hk-stock': { sigma: 0.0012, notionalPerTick: 4e6, quietShare: 0 },
  'cn-stock': { sigma: 0.001, notionalPerTick: 3e6, quietShare: 0 },
  index: { sigma: 0.0006, notionalPerTick: 2e8, quietShare: 0 },
  forex: { sigma: 0.0002, unitsPerTick: 25, quietShare: 0 },
  metal: { sigma: 0.0004, unitsPerTick: 12, quietShare: 0 },
  energy: { sigma: 0.0007, unitsPerTick: 20, quietShare: 0 },
  crypto: { sigma: 0.0015, notionalPerTick: 2e5, quietShare: 0 },
  'cfd-index': { sigma: 0.0005, unitsPerTick: 8, quietShare: 0 },
  commodity: { sigma: 0.0006, unitsPerTick: 3, quietShare: 0.35 },
};

/** Per-code tweaks: an illiquid HK stock (example responses show it with zero volume) and jumpier meme coins. */
const CODE_OVERRIDES: Readonly<Record<string, Partial<ClassParams>>> = {
  '857.HK': { quietShare: 0.2 },
  'SHIBUSDT': { sigma: 0.0025 },
  'PEPEUSDT': { sigma: 0.003 },
};

/** One minute's bar as scaled integers (price x 10^pd, volume x 10^vd, turnover x 10^(pd+vd)). */
export interface MinuteBar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  turnover: number;
  /** Ticks included (1..TICKS_PER_MINUTE). */
  ticks: number;
  /** No trade happened in this minute (volume 0, flat at the previous price). */
  quiet: boolean;
}

export function emptyMinuteBar(): MinuteBar {
  return { open: 0, high: 0, low: 0, close: 0, volume: 0, turnover: 0, ticks: 0, quiet: false };
}

export class PricePath {
  readonly key: number;
  readonly priceDecimals: number;
  readonly volumeDecimals: number;
  readonly quietShare: number;
  private readonly refInt: number;
  private readonly amps: Float64Array;
  private readonly jitter: number;
  /** Typical volume of one tick (scaled integer); also sizes the book's levels. */
  readonly baseVolume: number;
  /** Bounds of any minute's prices and volume (scaled integers), as the model is built to keep turnover exact. */
  readonly maxPrice: number;
  readonly maxMinuteVolume: number;
  /**
   * Memo: within one 4-minute cell of the finest scale every scale is linear in m, so the sum is
   * A + B * (m - base). A and B depend only on the cells that contain m, so the memo never changes
   * a value, it only saves work.
   */
  private readonly cell = new Float64Array(SCALES.length).fill(Number.NaN);
  private readonly h0 = new Float64Array(SCALES.length);
  private readonly h1 = new Float64Array(SCALES.length);
  private base = Number.NaN;
  private sumA = 0;
  private sumB = 0;

  constructor(seed: number, readonly product: Product) {
    const params = { ...CLASS_PARAMS[product.productClass], ...CODE_OVERRIDES[product.code] };
    // Kept as a signed 32-bit value so the hashes stay on small-integer fast paths.
    this.key = hash32(seed | 0, fnv1a(product.code), 0x51, 0x7a) | 0;
    this.priceDecimals = product.priceDecimals;
    this.volumeDecimals = product.volumeDecimals;
    this.quietShare = params.quietShare;
    const ref = parseScaled(product.referencePrice, product.priceDecimals);
    if (ref <= 0n || ref > 2n ** 40n) throw new RangeError(`referencePrice out of range for ${product.code}: ${product.referencePrice}`);
    this.refInt = Number(ref);
    this.amps = new Float64Array(SCALES.map((s) => Math.min(AMP_CAP, params.sigma * Math.sqrt(s) * 0.9)));
    this.jitter = params.sigma * 0.35;
    const maxLog = this.amps.reduce((a, b) => a + b, 0) + this.jitter;
    const refValue = this.refInt / 10 ** product.priceDecimals;
    // Per-code size variation, fixed by the code alone so it does not depend on the seed.
    const sizeFactor = 0.4 + 1.6 * unit(fnv1a(product.code), 7, 7, 7);
    const units = params.unitsPerTick ?? (params.notionalPerTick ?? 1) / refValue;
    let baseVolume = Math.max(1, Math.round(units * sizeFactor * 10 ** product.volumeDecimals));
    // Margin for the in-minute drift and the cubic's overshoot.
    const maxPriceInt = Math.ceil(this.refInt * Math.exp(maxLog + 0.05)) + 1;
    const maxTickVolume = (v: number): number => Math.ceil(v * 1.85);
    while (baseVolume > 1 && maxPriceInt * maxTickVolume(baseVolume) * TICKS_PER_MINUTE > MAX_MINUTE_TURNOVER) {
      baseVolume = Math.floor(baseVolume / 2);
    }
    if (maxPriceInt * maxTickVolume(baseVolume) * TICKS_PER_MINUTE > MAX_MINUTE_TURNOVER) {
      throw new RangeError(`price scale of ${product.code} too large for exact turnover`);
    }
    this.baseVolume = baseVolume;
    this.maxPrice = maxPriceInt;
    this.maxMinuteVolume = maxTickVolume(baseVolume) * TICKS_PER_MINUTE;
  }

  /** The slow component of the log-price at the start of minute `m` (minutes since the epoch). */
  coarse(m: number): number {
    const base = Math.floor(m / FINEST) * FINEST;
    if (base !== this.base) this.rebase(base);
    return this.sumA + this.sumB * (m - base);
  }

  private rebase(base: number): void {
    let a = 0;
    let b = 0;
    for (let i = 0; i < SCALES.length; i++) {
      const s = SCALES[i]!;
      const q = Math.floor(base / s);
      const had = this.cell[i]!;
      if (q !== had) {
        // Walking forward, the next cell's start value is this cell's end value.
        this.h0[i] = q === had + 1 ? this.h1[i]! : symmetric(this.key, 1000 + i, q, 0);
        this.h1[i] = symmetric(this.key, 1000 + i, q + 1, 0);
        this.cell[i] = q;
      }
      const h0 = this.h0[i]!;
      const slope = (this.amps[i]! * (this.h1[i]! - h0)) / s;
      a += this.amps[i]! * h0 + slope * (base - q * s);
      b += slope;
    }
    this.base = base;
    this.sumA = a;
    this.sumB = b;
  }

  /** Whether minute `m` had no trade. */
  isQuiet(m: number): boolean {
    return this.quietShare > 0 && unit(this.key, 3, m, 0) < this.quietShare;
  }

  /**
   * One hash per tick drives both its price jitter (high 16 bits) and its size (low 16 bits).
   * Price: the minute's level `e0` = refInt * exp(coarse(m)) moved by the drift share plus jitter;
   * the small in-minute move uses a cubic of exp (this model's definition; saves an exp per tick).
   */
  tickPrice(m: number, k: number, e0: number, d: number): number {
    const h = hash32(this.key, 1, m * TICKS_PER_MINUTE + k, 0);
    return this.priceOf(h, k, e0, d);
  }

  private priceOf(h: number, k: number, e0: number, d: number): number {
    const x = (d * k) / TICKS_PER_MINUTE + this.jitter * ((h >>> 16) / 32768 - 1);
    const p = Math.round(e0 * (1 + x * (1 + x * (0.5 + x / 6))));
    return p < 1 ? 1 : p;
  }

  private volumeOf(h: number): number {
    const v = Math.round(this.baseVolume * (0.15 + 1.7 * ((h & 0xffff) / 65536)));
    return v < 1 ? 1 : v;
  }

  /** refInt * exp(coarse(m)) */
  level(c0: number): number {
    return this.refInt * Math.exp(c0);
  }

  /** Volume (scaled integer) of tick `k` of minute `m` (ignores quiet minutes; see `minute`). */
  tickVolume(m: number, k: number): number {
    return this.volumeOf(hash32(this.key, 1, m * TICKS_PER_MINUTE + k, 0));
  }

  /** Price of tick `k` of minute `m` as traded (a quiet minute stays at its opening price). */
  priceAt(m: number, k: number): number {
    const c0 = this.coarse(m);
    const d = this.coarse(m + 1) - c0;
    return this.tickPrice(m, this.isQuiet(m) ? 0 : k, this.level(c0), d);
  }

  /** Fill `out` with minute `m`'s bar made of its first `ticks` ticks (1..TICKS_PER_MINUTE). */
  minute(m: number, ticks: number, out: MinuteBar): MinuteBar {
    const c0 = this.coarse(m);
    const d = this.coarse(m + 1) - c0;
    const e0 = this.level(c0);
    const base = m * TICKS_PER_MINUTE;
    let h = hash32(this.key, 1, base, 0);
    const p0 = this.priceOf(h, 0, e0, d);
    out.ticks = ticks;
    out.open = p0;
    if (this.isQuiet(m)) {
      out.high = p0;
      out.low = p0;
      out.close = p0;
      out.volume = 0;
      out.turnover = 0;
      out.quiet = true;
      return out;
    }
    out.quiet = false;
    let hi = p0;
    let lo = p0;
    let v = this.volumeOf(h);
    let vol = v;
    let turn = p0 * v;
    let p = p0;
    for (let k = 1; k < ticks; k++) {
      h = hash32(this.key, 1, base + k, 0);
      p = this.priceOf(h, k, e0, d);
      if (p > hi) hi = p;
      if (p < lo) lo = p;
      v = this.volumeOf(h);
      vol += v;
      turn += p * v;
    }
    out.high = hi;
    out.low = lo;
    out.close = p;
    out.volume = vol;
    out.turnover = turn;
    return out;
  }

  /** Adds the complete minutes [m0, m1) to `b` (the hot loop of daily and longer bars). */
  sumClosedMinutes(m0: number, m1: number, b: AggBuilder): void {
    const key = this.key;
    const quiet = this.quietShare;
    let cNext = this.coarse(m0);
    for (let m = m0; m < m1; m++) {
      const c0 = cNext;
      cNext = this.coarse(m + 1);
      const d = cNext - c0;
      const e0 = this.refInt * Math.exp(c0);
      const base = m * TICKS_PER_MINUTE;
      let h = hash32(key, 1, base, 0);
      const p0 = this.priceOf(h, 0, e0, d);
      if (quiet > 0 && unit(key, 3, m, 0) < quiet) {
        b.addBar(p0, p0, p0, p0, 0, 0);
        continue;
      }
      let hi = p0;
      let lo = p0;
      let v = this.volumeOf(h);
      let vol = v;
      let turn = p0 * v;
      let p = p0;
      for (let k = 1; k < TICKS_PER_MINUTE; k++) {
        h = hash32(key, 1, base + k, 0);
        p = this.priceOf(h, k, e0, d);
        if (p > hi) hi = p;
        if (p < lo) lo = p;
        v = this.volumeOf(h);
        vol += v;
        turn += p * v;
      }
      b.addBar(p0, hi, lo, p, vol, turn);
    }
  }
}
