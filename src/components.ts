/**
 * The registry: every component quotelake ships, as an explicit list. The pipeline schema, the JSON
 * Schema, `quotelake list` and the compliance suite are all built from it.
 */
import type { z } from 'zod';
import type { ComponentDefinition } from './core/definition.js';
import { arrowSink, type arrowSinkConfigSchema } from './sinks/arrow/index.js';
import { ndjsonSink, type ndjsonSinkConfigSchema } from './sinks/ndjson/index.js';
import { parquetSink, type parquetSinkConfigSchema } from './sinks/parquet/index.js';
import { normalizeHalts, type normalizeHaltsConfigSchema } from './transforms/normalize-halts/index.js';
import { parseDecimals, type parseDecimalsConfigSchema } from './transforms/parse-decimals/index.js';
import { depthSnapshot, type depthSnapshotConfigSchema } from './sources/depth-snapshot/index.js';
import { klineHistory, type klineHistoryConfigSchema } from './sources/kline-history/index.js';
import { klineLatest, type klineLatestConfigSchema } from './sources/kline-latest/index.js';
import { tradeSnapshot, type tradeSnapshotConfigSchema } from './sources/trade-snapshot/index.js';
import { tradingHalts, type tradingHaltsConfigSchema } from './sources/trading-halts/index.js';

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

/**
 * What a pipeline author writes for each shipped component, from its own zod schema (defaulted keys
 * optional), for definePipeline(): an unknown `type`, a misspelt key or a value of the wrong type is
 * a compile error in a TypeScript pipeline, as the JSON Schema makes it one in a YAML editor.
 */
type Written<T extends string, S extends z.ZodType> = { readonly type: T } & ReadonlyDeep<z.input<S>>;
/** Arrays a user built `as const` are accepted too: definePipeline only reads them. */
type ReadonlyDeep<V> = V extends readonly (infer E)[] ? readonly ReadonlyDeep<E>[] : V extends object ? { readonly [K in keyof V]: ReadonlyDeep<V[K]> } : V;

export type ShippedSourceConfig =
  | Written<'kline-history', typeof klineHistoryConfigSchema>
  | Written<'kline-latest', typeof klineLatestConfigSchema>
  | Written<'depth-snapshot', typeof depthSnapshotConfigSchema>
  | Written<'trade-snapshot', typeof tradeSnapshotConfigSchema>
  | Written<'trading-halts', typeof tradingHaltsConfigSchema>;

export type ShippedTransformConfig = Written<'parse-decimals', typeof parseDecimalsConfigSchema> | Written<'normalize-halts', typeof normalizeHaltsConfigSchema>;

export type ShippedSinkConfig = Written<'parquet', typeof parquetSinkConfigSchema> | Written<'arrow', typeof arrowSinkConfigSchema> | Written<'ndjson', typeof ndjsonSinkConfigSchema>;
