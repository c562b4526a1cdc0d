/** The sources quotelake ships (registered in src/components.ts) and their config types. */
export { klineHistory, klineHistoryConfigSchema, type KlineHistoryConfig } from './kline-history/index.js';
export { planKlineHistory } from './kline-history/plan-kline-history.js';
export { klineLatest, klineLatestConfigSchema, type KlineLatestConfig } from './kline-latest/index.js';
export { depthSnapshot, depthSnapshotConfigSchema, type DepthSnapshotConfig } from './depth-snapshot/index.js';
export { tradeSnapshot, tradeSnapshotConfigSchema, type TradeSnapshotConfig } from './trade-snapshot/index.js';
export { tradingHalts, tradingHaltsConfigSchema, type TradingHaltsConfig } from './trading-halts/index.js';
export { resolveTimeSpec } from './shared/time-spec.js';
