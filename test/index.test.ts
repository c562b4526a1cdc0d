import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as quotelake from '../src/index.js';

describe('public API', () => {
  it('exports the pipeline, client, emulator and component entry points', () => {
    for (const name of ['definePipeline', 'loadPipeline', 'runPipeline', 'planPipeline', 'createClient', 'startEmulator', 'coverageOfOutput'] as const) {
      expect(typeof quotelake[name], name).toBe('function');
    }
    expect(quotelake.components.map((c) => `${c.kind}:${c.type}`).sort()).toEqual([
      'sink:arrow',
      'sink:ndjson',
      'sink:parquet',
      'source:depth-snapshot',
      'source:kline-history',
      'source:kline-latest',
      'source:trade-snapshot',
      'source:trading-halts',
      'transform:normalize-halts',
      'transform:parse-decimals',
    ]);
  });

  it('exports every error class a command or a library call throws, so a program can tell them apart', () => {
    for (const name of ['StateConflictError', 'FormatVersionError', 'LakeReadError', 'LakeObjectMissingError', 'DeltaConflictError', 'DeltaLogError', 'PathOutsideRootError', 'EnvironmentError', 'S3LocationError', 'CoordinatorDownError'] as const) {
      expect(quotelake[name].prototype, name).toBeInstanceOf(quotelake.QuotelakeError);
    }
    // The types of runPipeline's options and result, the client's answers and the coverage report
    // are exported too (a compile-time check: this file does not compile without them).
    const options: quotelake.RunOptions | undefined = undefined;
    const result: Pick<quotelake.RunResult, 'status'> = { status: 'succeeded' };
    const bar: Pick<quotelake.KlineBar, 'timestamp'> | undefined = undefined;
    const gap: quotelake.GapReason = 'unexplained';
    expect([options, result.status, bar, gap]).toEqual([undefined, 'succeeded', undefined, 'unexplained']);
  });

  it('exports the error classes startEmulator throws for a bad fault or behaviour spec', async () => {
    const faults = await quotelake.startEmulator({ faults: 'bogus=1' }).then(() => undefined, (e: unknown) => e);
    expect(faults).toBeInstanceOf(quotelake.FaultSpecError);
    expect(faults).toMatchObject({ code: 'QL_CONFIG', message: 'invalid fault spec part "bogus=1": unknown fault "bogus" (known: latency, 5xx, 504, drop, truncate, 429, 429-untraced, halt-busy, retry-after, drip)' });
    const behaviours = await quotelake.startEmulator({ behaviours: 'nope' }).then(() => undefined, (e: unknown) => e);
    expect(behaviours).toBeInstanceOf(quotelake.BehaviourSpecError);
    expect(behaviours).toMatchObject({ code: 'QL_CONFIG' });
    expect((behaviours as Error).message).toMatch(/^invalid behaviour spec part "nope": unknown behaviour "nope"/);
    for (const error of [faults, behaviours]) expect(error).toBeInstanceOf(quotelake.ConfigError);
  });

  it('lets a program find the package root (its pipelines/ and pipeline.schema.json) through quotelake/package.json', () => {
    const root = fileURLToPath(new URL('../', import.meta.url));
    expect(createRequire(join(root, 'package.json')).resolve('quotelake/package.json')).toBe(join(root, 'package.json'));
  });

  it('validates a TypeScript pipeline with the same schema as YAML files', () => {
    const pipeline = quotelake.definePipeline({
      name: 'ts-demo',
      source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1m'], since: '1d' },
      transforms: [{ type: 'parse-decimals' }],
      sink: { type: 'parquet' },
    });
    const registry = quotelake.components;
    expect(quotelake.validatePipeline(pipeline, { registry }).source.type).toBe('kline-history');
    expect(() => quotelake.validatePipeline({ ...pipeline, sinkk: {} }, { registry })).toThrow(/sinkk/);
  });
});
