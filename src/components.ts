/**
 * The registry: every component quotelake ships, as an explicit list. The pipeline schema, the JSON
 * Schema, `quotelake list` and the compliance suite are all built from it.
 */
import type { ComponentDefinition } from './core/definition.js';
import { depthSnapshot } from './sources/depth-snapshot/index.js';
import { klineHistory } from './sources/kline-history/index.js';
import { klineLatest } from './sources/kline-latest/index.js';
import { tradeSnapshot } from './sources/trade-snapshot/index.js';
import { tradingHalts } from './sources/trading-halts/index.js';

// Sources (kline-history, kline-latest, depth-snapshot, trade-snapshot, trading-halts): add them here.
const sources: ComponentDefinition[] = [
  klineHistory as ComponentDefinition,
  klineLatest as ComponentDefinition,
  depthSnapshot as ComponentDefinition,
  tradeSnapshot as ComponentDefinition,
  tradingHalts as ComponentDefinition,
];

// Transforms (parse-decimals, normalize-halts).
const transforms: ComponentDefinition[] = [];

// Sinks (parquet, arrow, ndjson).
const sinks: ComponentDefinition[] = [];

export const components: readonly ComponentDefinition[] = [...sources, ...transforms, ...sinks];
