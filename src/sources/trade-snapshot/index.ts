/**
 * trade-snapshot: the latest trade of many codes, once or every N seconds; every row stamped with
 * fetched_at. Invalid or missing codes are reported by name, the others delivered.
 */
import * as z from 'zod';
import type { TradeTick } from '../../api/index.js';
import type { SourceDefinition } from '../../core/definition.js';
import type { RawTrade } from '../../core/records.js';
import type { WireTradeTick } from '../../core/wire.js';
import type { SourcePlanner } from '../../core/plan-types.js';
import { lintSnapshot, planSnapshot, snapshotShape, SnapshotSource, type SnapshotKind } from '../shared/snapshot-source.js';

export const tradeSnapshotConfigSchema = z.strictObject(snapshotShape);
export type TradeSnapshotConfig = z.infer<typeof tradeSnapshotConfigSchema>;

const kind: SnapshotKind<TradeTick, RawTrade> = {
  type: 'trade-snapshot',
  dataset: 'trade',
  path: 'trade-tick',
  fetch: (client, codes, signal) => client.tradeTicks(codes, signal),
  // Optional wire fields stay as sent: parse-decimals rejects a tick that lacks one, by name.
  toRecord: (tick, fetchedAtMs, source) => ({ tick: tick as unknown as WireTradeTick, fetchedAtMs, source }),
};

export const tradeSnapshot: SourceDefinition<TradeSnapshotConfig, RawTrade> & SourcePlanner<TradeSnapshotConfig> = {
  kind: 'source',
  needsClient: true,
  polls: true,
  type: 'trade-snapshot',
  summary: 'Latest trade of many codes per request (within the plan\'s caps), once or every N seconds; rows stamped fetched_at.',
  configSchema: tradeSnapshotConfigSchema,
  examples: [
    { codes: ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT'] },
    { codes: ['AAPL.US', 'TSLA.US'], everySeconds: 1, count: 30 },
    { codes: ['EURUSD', 'USDJPY'], everySeconds: 60, durationSeconds: 3600 },
  ],
  dataset: () => 'trade',
  emits: 'raw-trade',
  lint: lintSnapshot,
  create: (config, env) => new SnapshotSource(kind, config, env),
  plan: (config, ctx) => planSnapshot(config, ctx, kind),
};
