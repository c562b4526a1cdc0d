export { SyntheticMarket, QUOTE_MS, type LatestTrade, type SyntheticMarketOptions } from './synthetic-market.js';
export { TICKS_PER_MINUTE, TICK_MS } from './price-path.js';
