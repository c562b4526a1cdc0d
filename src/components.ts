/**
 * The registry: every component quotelake ships, as an explicit list. The pipeline schema, the JSON
 * Schema, `quotelake list` and the compliance suite are all built from it.
 */
import type { ComponentDefinition } from './core/definition.js';

// Sources (kline-history, kline-latest, depth-snapshot, trade-snapshot, trading-halts): add them here.
const sources: ComponentDefinition[] = [];

// Transforms (parse-decimals, normalize-halts).
const transforms: ComponentDefinition[] = [];

// Sinks (parquet, arrow, ndjson).
const sinks: ComponentDefinition[] = [];

export const components: readonly ComponentDefinition[] = [...sources, ...transforms, ...sinks];
