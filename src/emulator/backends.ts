import type { Product } from '../catalog/types.js';
import type { HaltExchange, WireDepthTick, WireHaltRecord, WireKline, WireTradeTick } from './contracts.js';

/** The synthetic market, as the HTTP layer uses it. `count` is already 1..500; `endSec` 0 = newest. */
export interface MarketBackend {
  klines(product: Product, klineType: number, endSec: number, count: number, nowMs: number): WireKline[];
  /**
   * Optional fast path: exactly the bytes of `JSON.stringify(klines(…))`, in pieces to concatenate
   * (shared, read-only), or undefined when this backend has no faster way for these arguments.
   */
  klineListJson?(product: Product, klineType: number, endSec: number, count: number, nowMs: number): readonly Uint8Array[] | undefined;
  depth(product: Product, nowMs: number): WireDepthTick;
  trade(product: Product, nowMs: number): WireTradeTick;
}

/** The halt archive: the last year of records of one exchange, newest first. */
export interface HaltBackend {
  records(exchange: HaltExchange, nowMs: number): WireHaltRecord[];
}

/** Everything the routes read data from; replaceable for tests. */
export interface EmulatorBackends {
  findProduct(code: string): Product | undefined;
  market: MarketBackend;
  halts: HaltBackend;
}
