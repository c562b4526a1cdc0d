import { describe, expect, it } from 'vitest';
import type { ComponentDefinition, SinkDefinition, TransformDefinition } from '../../src/core/definition.js';
import { arrowSink } from '../../src/sinks/arrow/index.js';
import { ndjsonSink } from '../../src/sinks/ndjson/index.js';
import { parquetSink } from '../../src/sinks/parquet/index.js';
import { normalizeHalts } from '../../src/transforms/normalize-halts/index.js';
import { parseDecimals } from '../../src/transforms/parse-decimals/index.js';

// The registry holds them as the base types: this must typecheck.
const transforms: TransformDefinition[] = [parseDecimals, normalizeHalts];
const sinks: SinkDefinition[] = [parquetSink, arrowSink, ndjsonSink];
const all: ComponentDefinition[] = [...transforms, ...sinks];

describe('component definitions', () => {
  it.each(all.map((d) => [d.type, d] as const))('%s: examples parse, unknown keys refused, summary set', (type, def) => {
    expect(['parse-decimals', 'normalize-halts', 'parquet', 'arrow', 'ndjson']).toContain(type);
    expect(def.summary.length).toBeGreaterThan(10);
    expect(def.examples.length).toBeGreaterThan(0);
    for (const e of def.examples) expect(def.configSchema.safeParse(e).success).toBe(true);
    expect(def.configSchema.safeParse({ notAKey: 1 }).success).toBe(false);
  });

  it('sink definitions create sinks for every dataset and refuse unknown ones', () => {
    const env = { outputDir: '/tmp/x', stateDir: '/tmp/x/.state', stdout: process.stdout };
    for (const def of sinks) {
      for (const dataset of ['kline', 'trade', 'depth', 'halt']) expect(def.create(def.configSchema.parse({}), { ...env, dataset })).toBeDefined();
      expect(() => def.create(def.configSchema.parse({}), { ...env, dataset: 'quotes' })).toThrow(/unknown dataset/);
    }
  });
});
