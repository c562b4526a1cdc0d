/**
 * definePipeline's types: the shipped components' configs, from their own schemas. `npm test`
 * type-checks this file first (tsc), so each @ts-expect-error below fails the suite the day its
 * mistake stops being a compile error.
 */
import { describe, expect, it } from 'vitest';
import { components, definePipeline, runPipeline, validatePipeline, type ShippedPipelineInput, type ShippedSinkConfig, type ShippedSourceConfig, type ShippedTransformConfig } from '../src/index.js';

type ShippedType = ShippedSourceConfig['type'] | ShippedTransformConfig['type'] | ShippedSinkConfig['type'];

describe('definePipeline types the shipped components', () => {
  it('names every registered component, and no other (a new component needs its config type in components.ts)', () => {
    const typed: Record<ShippedType, true> = {
      'kline-history': true,
      'kline-latest': true,
      'depth-snapshot': true,
      'trade-snapshot': true,
      'trading-halts': true,
      'parse-decimals': true,
      'normalize-halts': true,
      parquet: true,
      arrow: true,
      ndjson: true,
    };
    expect(Object.keys(typed).sort()).toEqual(components.map((c) => c.type).sort());
  });

  it('takes what the schema takes: defaults left out, arrays built as const, every component', () => {
    const codes = ['BTCUSDT', 'ETHUSDT'] as const;
    const pipelines: ShippedPipelineInput[] = [
      definePipeline({ name: 'a', source: { type: 'kline-history', codes, intervals: ['1m', '1h'], since: '7d' }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet', table: 'delta' } }),
      definePipeline({ name: 'b', source: { type: 'kline-latest', codes: ['AAPL.US'], intervals: ['1m'] }, sink: { type: 'ndjson', output: '-' } }),
      definePipeline({ name: 'c', source: { type: 'depth-snapshot', codes: ['BTCUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'arrow' } }),
      definePipeline({ name: 'd', source: { type: 'trade-snapshot', codes: ['BTCUSDT'] }, transforms: [{ type: 'parse-decimals', decimal: { precision: 38, scale: 18 } }], sink: { type: 'parquet' } }),
      definePipeline({ name: 'e', source: { type: 'trading-halts', exchanges: ['sse', 'nyse'] }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'parquet' }, options: { onReject: 'divert' } }),
    ];
    for (const p of pipelines) expect(validatePipeline(p, { registry: components }).name).toBe(p.name);
    // What definePipeline returns is what runPipeline takes.
    const run: (p: ShippedPipelineInput) => ReturnType<typeof runPipeline> = (p) => runPipeline(p, { registry: components });
    expect(typeof run).toBe('function');
  });

  it('makes the mistakes of a hand-written pipeline compile errors', () => {
    const mistakes = [
      // @ts-expect-error -- a component that does not exist
      () => definePipeline({ name: 'x', source: { type: 'kline-histroy', codes: ['BTCUSDT'], intervals: ['1m'] }, sink: { type: 'parquet' } }),
      // @ts-expect-error -- a misspelt key (interval for intervals)
      () => definePipeline({ name: 'x', source: { type: 'kline-history', codes: ['BTCUSDT'], interval: ['1m'] }, sink: { type: 'parquet' } }),
      // @ts-expect-error -- an interval the service has no bars of
      () => definePipeline({ name: 'x', source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['3m'] }, sink: { type: 'parquet' } }),
      // @ts-expect-error -- a key of another sink (ndjson's chunkBytes on parquet)
      () => definePipeline({ name: 'x', source: { type: 'depth-snapshot', codes: ['BTCUSDT'] }, sink: { type: 'parquet', chunkBytes: 65536 } }),
      // @ts-expect-error -- a source where a transform goes
      () => definePipeline({ name: 'x', source: { type: 'depth-snapshot', codes: ['BTCUSDT'] }, transforms: [{ type: 'depth-snapshot' }], sink: { type: 'arrow' } }),
      // @ts-expect-error -- a number where the schema wants a string
      () => definePipeline({ name: 'x', source: { type: 'trade-snapshot', codes: [5] }, sink: { type: 'arrow' } }),
      // @ts-expect-error -- an onReject that does not exist
      () => definePipeline({ name: 'x', source: { type: 'trade-snapshot', codes: ['BTCUSDT'] }, sink: { type: 'arrow' }, options: { onReject: 'skip' } }),
    ];
    expect(mistakes).toHaveLength(7);
  });
});
