import { describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { validatePipeline } from '../../src/config/parse-pipeline.js';
import type { SourceDefinition } from '../../src/core/definition.js';
import { depthSnapshot, klineHistory, klineLatest, tradeSnapshot, tradingHalts } from '../../src/sources/index.js';

const SOURCES = [klineHistory, klineLatest, depthSnapshot, tradeSnapshot, tradingHalts] as unknown as SourceDefinition[];

describe('source definitions', () => {
  it('are registered under their folder names', () => {
    expect(components.filter((c) => c.kind === 'source').map((c) => c.type)).toEqual([
      'kline-history',
      'kline-latest',
      'depth-snapshot',
      'trade-snapshot',
      'trading-halts',
    ]);
  });

  it.each(SOURCES.map((d) => [d.type, d] as const))('%s: every example parses, lints clean and validates as a pipeline', (_type, def) => {
    expect(def.examples.length).toBeGreaterThanOrEqual(2);
    expect(def.summary.length).toBeGreaterThan(20);
    for (const example of def.examples) {
      const config = def.configSchema.parse(example);
      expect(def.lint?.(config) ?? []).toEqual([]);
      const transform = def.type === 'trading-halts' ? 'normalize-halts' : 'parse-decimals';
      const pipeline = validatePipeline(
        { name: 'x', source: { type: def.type, ...(example as object) }, transforms: [{ type: transform }], sink: { type: 'parquet' } },
        { registry: components },
      );
      expect(def.dataset(config)).toBe({ 'kline-history': 'kline', 'kline-latest': 'kline', 'depth-snapshot': 'depth', 'trade-snapshot': 'trade', 'trading-halts': 'halt' }[def.type]);
      expect(pipeline.source.type).toBe(def.type);
    }
  });

  it('unknown keys are refused (strict configs)', () => {
    for (const def of SOURCES) expect(def.configSchema.safeParse({ ...(def.examples[0] as object), bogus: 1 }).success).toBe(false);
  });

  it('polling needs an end', () => {
    const config = klineLatest.configSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], everySeconds: 5 });
    expect(klineLatest.lint!(config)).toEqual([{ path: ['everySeconds'], message: expect.stringContaining('never stop') }]);
  });
});
