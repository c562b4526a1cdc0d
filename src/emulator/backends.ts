import type { Product } from '../catalog/types.js';
import type { HaltExchange, WireDepthTick, WireHaltRecord, WireKline, WireTradeTick } from './contracts.js';

/** The synthetic market, as the HTTP layer uses it. `count` is already 1..500; `endSec` 0 = newest. */
export interface MarketBackend {
  klines(product: Product, klineType: number, endSec: number, count: number, nowMs: number): WireKline[];
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
