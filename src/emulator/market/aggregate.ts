/** Exact OHLCV aggregates of consecutive bars (prices as scaled integers, sums as BigInt). */
import { ExactSum } from './scaled.js';
import type { MinuteBar } from './price-path.js';

export interface Agg {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: bigint;
  readonly turnover: bigint;
}

/** Folds bars in ascending time order: first open, last close, max high, min low, exact sums. */
export class AggBuilder {
  private has = false;
  private open = 0;
  private high = 0;
  private low = 0;
  private close = 0;
  private readonly volume = new ExactSum();
  private readonly turnover = new ExactSum();

  addMinute(b: MinuteBar): void {
    this.addBar(b.open, b.high, b.low, b.close, b.volume, b.turnover);
  }

  /** One bar as scaled integers; volume and turnover must be below 2^52. */
  addBar(open: number, high: number, low: number, close: number, volume: number, turnover: number): void {
    this.addPrices(open, high, low, close);
    this.volume.add(volume);
    this.turnover.add(turnover);
  }

  addAgg(a: Agg): void {
    this.addPrices(a.open, a.high, a.low, a.close);
    this.volume.addBig(a.volume);
    this.turnover.addBig(a.turnover);
  }

  private addPrices(open: number, high: number, low: number, close: number): void {
    if (!this.has) {
      this.has = true;
      this.open = open;
      this.high = high;
      this.low = low;
    } else {
      if (high > this.high) this.high = high;
      if (low < this.low) this.low = low;
    }
    this.close = close;
  }

  /** The aggregate, or null when nothing was added. */
  build(): Agg | null {
    if (!this.has) return null;
    return {
      open: this.open,
      high: this.high,
      low: this.low,
      close: this.close,
      volume: this.volume.total(),
      turnover: this.turnover.total(),
    };
  }
}
