/**
 * The product catalog's vocabulary. Shared by the emulator (what exists and how it trades) and the
 * client (which family a code goes to, whether end timestamps work, how deep a book is).
 */

export type ProductClass =
  | 'us-stock'
  | 'hk-stock'
  | 'cn-stock'
  | 'index'
  | 'forex'
  | 'metal'
  | 'energy'
  | 'crypto'
  | 'cfd-index'
  | 'commodity';

/** Which path prefix serves the product (W11). */
export type Family = 'stock' | 'non-stock';

/** The market a product belongs to, for the All-* plans' scope (604). `null` for non-stock products. */
export type StockMarket = 'US' | 'HK' | 'CN';

/** Names of the trading calendars in `sessions.ts`. */
export type SessionName = 'us-equity' | 'hk-equity' | 'cn-equity' | 'fx-week' | 'always';

export interface Product {
  /** Case-sensitive code as in the product list, e.g. `AAPL.US`, `EURUSD`, `Silver`. */
  readonly code: string;
  readonly name: string;
  readonly productClass: ProductClass;
  readonly family: Family;
  readonly market: StockMarket | null;
  /** Maximum order-book levels (spec 2.2). */
  readonly depthLevels: number;
  /** Decimals of a price (e.g. 2 for AAPL.US, 3 for USDJPY, 8 for SHIBUSDT). */
  readonly priceDecimals: number;
  /** Decimals of a traded volume (0 for shares, 5 for BTC ...). */
  readonly volumeDecimals: number;
  /** Whether `kline_timestamp_end` may be non-zero (forex, metals, crypto only; W4). */
  readonly endTimestampSupported: boolean;
  /** Whether 2h and 4h K-lines exist (not for stocks and indexes; spec 2.1). */
  readonly supportsMultiHourBars: boolean;
  /** Whether the order book carries volumes (false for some CFD indexes). */
  readonly bookHasVolume: boolean;
  readonly session: SessionName;
  /** IANA zone whose midnight anchors the bar grid (W12). */
  readonly gridZone: string;
  /** First trading date (YYYY-MM-DD in gridZone): a backward walk ends here. */
  readonly listedSince: string;
  /** A typical price, as a decimal string, around which the synthetic market moves. */
  readonly referencePrice: string;
  /**
   * The emulator's book for this product is locked at a price limit: `up` = asks empty (limit-up),
   * `down` = bids empty (limit-down). Absent for normal products.
   */
  readonly limitLock?: 'up' | 'down';
}
