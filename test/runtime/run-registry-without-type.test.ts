/**
 * A program's own registry that lacks a kind of stage (`[]`, or sinks only) is a QL_CONFIG that
 * names the type asked for and what the registry has, before anything is fetched or written.
 * Before, zod's union of no types answered "source: expected a never, got a mapping".
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, definePipeline, klineHistory, ManualClock, ndjsonSink, parseDecimals, runPipeline, startEmulator, type EmulatorHandle, type Registry, type ServiceClient } from '../../src/index.js';

const pipeline = definePipeline({
  name: 'btc-hours',
  source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2d' },
  transforms: [{ type: 'parse-decimals' }],
  sink: { type: 'ndjson' },
});

let emulator: EmulatorHandle;
let client: ServiceClient;
let requests = 0;
const root = mkdtempSync(join(tmpdir(), 'ql-run-registry-'));

beforeAll(async () => {
  const clock = new ManualClock('2026-11-20T00:00:00Z');
  emulator = await startEmulator({ clock, log: () => {} });
  client = createClient({ baseUrl: emulator.url, token: 'demo-professional', plan: 'professional', stateDir: join(root, 'quota'), clock, onRequest: () => void requests++ });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

const cases: [string, Registry, string[]][] = [
  [
    'an empty registry',
    [],
    [
      'source.type: source type "kline-history" is not in the registry: the registry is empty',
      'transforms[0].type: transform type "parse-decimals" is not in the registry: the registry is empty',
      'sink.type: sink type "ndjson" is not in the registry: the registry is empty',
    ],
  ],
  ['a registry of a sink only', [ndjsonSink, parseDecimals], ['source.type: source type "kline-history" is not in the registry: the registry has no source types (it has sink ndjson, transform parse-decimals)']],
  ['a registry of a source only', [klineHistory, parseDecimals], ['sink.type: sink type "ndjson" is not in the registry: the registry has no sink types (it has source kline-history, transform parse-decimals)']],
];

describe('runPipeline with a registry that lacks a stage kind', () => {
  it.each(cases)('%s names the missing type and what the registry has', async (name, registry, problems) => {
    const outputDir = join(root, name.replaceAll(' ', '-'));
    const before = requests;
    const error = await runPipeline(pipeline, { registry, client, outputDir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'QL_CONFIG', message: problems[0], problems: problems.map((message) => ({ message })) });
    expect(requests).toBe(before);
    expect(existsSync(outputDir)).toBe(false);
  });
});
