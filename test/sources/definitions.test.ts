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

  it('a code or interval listed twice is pointed at by the schema, in every source that takes a list', () => {
    const twice = (path: string, i: number, value: string, at: number) => ({ path: [path, i], message: `"${value}" is listed already, at ${path}[${at}]: remove one (or write the value you meant)` });
    const said = (def: { configSchema: { safeParse(v: unknown): { error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } } } }, config: object) =>
      (def.configSchema.safeParse(config).error?.issues ?? []).map((i) => ({ path: [...i.path], message: i.message }));
    expect(said(klineHistory, { codes: ['BTCUSDT', 'EURUSD', 'BTCUSDT'], intervals: ['1m', '1h', '1h'], since: '1d' })).toEqual([twice('codes', 2, 'BTCUSDT', 0), twice('intervals', 2, '1h', 1)]);
    expect(said(klineLatest, { codes: ['GOLD', 'GOLD'], intervals: ['1m'] })).toEqual([twice('codes', 1, 'GOLD', 0)]);
    for (const def of [depthSnapshot, tradeSnapshot] as unknown as SourceDefinition[]) {
      expect(said(def, { codes: ['AAPL.US', 'BTCUSDT', 'AAPL.US', 'AAPL.US'] })).toEqual([twice('codes', 2, 'AAPL.US', 0), twice('codes', 3, 'AAPL.US', 0)]);
      expect(said(def, { codes: ['NOSUCH'], codesOutsideCatalog: ['NOSUCH', 'NOSUCH'] })).toEqual([twice('codesOutsideCatalog', 1, 'NOSUCH', 0)]);
    }
    expect(said(tradingHalts, { exchanges: ['sse', 'nyse', 'sse'] })).toEqual([twice('exchanges', 2, 'sse', 0)]);
    expect(said(tradingHalts, {})).toEqual([]);
  });

  it('polling needs an end', () => {
    const config = klineLatest.configSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], everySeconds: 5 });
    expect(klineLatest.lint!(config)).toEqual([{ path: ['everySeconds'], message: expect.stringContaining('never stop') }]);
  });
});
