/**
 * depth-snapshot: the latest order book of many codes, once or every N seconds; every row stamped
 * with fetched_at. Invalid or missing codes are reported by name, the others delivered.
 */
import * as z from 'zod';
import type { DepthTick } from '../../api/index.js';
import type { SourceDefinition } from '../../core/definition.js';
import type { RawDepth } from '../../core/records.js';
import type { WireDepthTick } from '../../core/wire.js';
import type { SourcePlanner } from '../../core/plan-types.js';
import { missingVolumeFlaw } from './missing-volume.js';
import { lintSnapshot, planSnapshot, snapshotShape, SnapshotSource, type SnapshotKind } from '../shared/snapshot-source.js';

export const depthSnapshotConfigSchema = z.strictObject(snapshotShape);
export type DepthSnapshotConfig = z.infer<typeof depthSnapshotConfigSchema>;

const kind: SnapshotKind<DepthTick, RawDepth> = {
  type: 'depth-snapshot',
  dataset: 'depth',
  path: 'depth-tick',
  fetch: (client, codes, signal) => client.depthTicks(codes, signal),
  // Optional wire fields stay as sent: parse-decimals rejects a tick that lacks one, by name. A
  // level without a volume is judged here, where the product's book is known (missing-volume.ts).
  toRecord: (tick, fetchedAtMs, source) => {
    const flaw = missingVolumeFlaw(tick);
    return { tick: tick as unknown as WireDepthTick, fetchedAtMs, source, ...(flaw !== undefined ? { flaw } : {}) };
  },
};

export const depthSnapshot: SourceDefinition<DepthSnapshotConfig, RawDepth> & SourcePlanner<DepthSnapshotConfig> = {
  kind: 'source',
  needsClient: true,
  polls: true,
  type: 'depth-snapshot',
  summary: 'Latest order book of many codes per request (within the plan\'s caps), once or every N seconds; rows stamped fetched_at.',
  configSchema: depthSnapshotConfigSchema,
  examples: [
    { codes: ['BTCUSDT', 'EURUSD', 'AAPL.US', '700.HK'] },
    { codes: ['600000.SH', '000001.SZ'], everySeconds: 5, count: 12 },
    { codes: ['GOLD', 'Silver', 'USOIL'], everySeconds: 10, durationSeconds: 600 },
  ],
  dataset: () => 'depth',
  emits: 'raw-depth',
  lint: lintSnapshot,
  create: (config, env) => new SnapshotSource(kind, config, env),
  plan: (config, ctx) => planSnapshot(config, ctx, kind),
};
