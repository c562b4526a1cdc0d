/**
 * The registry: every component quotelake ships, as an explicit list. The pipeline schema, the JSON
 * Schema, `quotelake list` and the compliance suite are all built from it.
 */
import type { ComponentDefinition } from './core/definition.js';
import { arrowSink } from './sinks/arrow/index.js';
import { ndjsonSink } from './sinks/ndjson/index.js';
import { parquetSink } from './sinks/parquet/index.js';
import { normalizeHalts } from './transforms/normalize-halts/index.js';
import { parseDecimals } from './transforms/parse-decimals/index.js';
import { depthSnapshot } from './sources/depth-snapshot/index.js';
import { klineHistory } from './sources/kline-history/index.js';
import { klineLatest } from './sources/kline-latest/index.js';
import { tradeSnapshot } from './sources/trade-snapshot/index.js';
import { tradingHalts } from './sources/trading-halts/index.js';

// Sources (kline-history, kline-latest, depth-snapshot, trade-snapshot, trading-halts): add them here.
const sources: ComponentDefinition[] = [
  klineHistory,
  klineLatest,
  depthSnapshot,
  tradeSnapshot,
  tradingHalts,
];

const transforms: ComponentDefinition[] = [parseDecimals, normalizeHalts];

const sinks: ComponentDefinition[] = [parquetSink, arrowSink, ndjsonSink];

export const components: readonly ComponentDefinition[] = [...sources, ...transforms, ...sinks];
