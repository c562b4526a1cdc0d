/**
 * A program (JavaScript, no compiler) that hands runPipeline a wrong option gets a QL_CONFIG that
 * names the option and what it was given, before anything is fetched or written: no layout, run
 * record or data left behind. Before, a logger missing a method failed after the run record was
 * written (left `running`) or after the data was committed (a run of 48 rows "failed"), and a
 * number for a folder or a missing registry ended in a bare TypeError. Through the package's entry
 * point, against the emulator on loopback.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { components, createClient, definePipeline, ManualClock, runPipeline, startEmulator, type EmulatorHandle, type RunOptions, type ServiceClient } from '../../src/index.js';

const pipeline = definePipeline({
  name: 'btc-hours',
  source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2d' },
  transforms: [{ type: 'parse-decimals' }],
  sink: { type: 'parquet' },
});

let emulator: EmulatorHandle;
let client: ServiceClient;
let requests = 0;
const root = mkdtempSync(join(tmpdir(), 'ql-run-options-'));
// The default output (`output`) is relative to the working folder: the test's own, so that what
// another test (or `npm start`) left in the project's folder does not count.
const cwd = process.cwd();

beforeAll(async () => {
  process.chdir(root);
  const clock = new ManualClock('2026-11-20T00:00:00Z');
  emulator = await startEmulator({ clock, log: () => {} });
  client = createClient({ baseUrl: emulator.url, token: 'demo-professional', plan: 'professional', stateDir: join(root, 'quota'), clock, onRequest: () => void requests++ });
});
afterAll(async () => {
  process.chdir(cwd);
  await client.close();
  await emulator.close();
});

const cases: [string, Record<string, unknown>, string][] = [
  ['a logger without methods', { logger: {} }, 'runPipeline: option logger must be createLogger() or an object with debug, info, warn and error (it has no debug, info, warn, error), and was given an object'],
  ['a logger with info only', { logger: { info: () => undefined } }, 'runPipeline: option logger must be createLogger() or an object with debug, info, warn and error (it has no debug, warn, error), and was given an object'],
  ['a number for the output folder', { outputDir: 42 }, 'runPipeline: option outputDir must be a non-empty path, and was given a number (42)'],
  ['a number for the state folder', { stateDir: 7 }, 'runPipeline: option stateDir must be a non-empty path, and was given a number (7)'],
  ['a string for the signal', { signal: 'stop' }, 'runPipeline: option signal must be an AbortSignal (AbortController.signal), and was given the string "stop"'],
  ['a run id that is a path', { runId: '../x' }, 'runPipeline: option runId must be a single file name (without / or \\), and was given the string "../x"'],
  ['no registry', { registry: undefined }, 'runPipeline: option registry must be the component definitions (components, or your own list), and was given nothing'],
];

describe('runPipeline refuses a wrong option before it touches anything', () => {
  it.each(cases)('%s', async (_name, wrong, message) => {
    const outputDir = join(root, `lake-${_name.replaceAll(' ', '-')}`);
    const options = { registry: components, client, outputDir, ...wrong } as unknown as RunOptions;
    const before = requests;
    await expect(runPipeline(pipeline, options)).rejects.toMatchObject({ code: 'QL_CONFIG', message });
    expect(requests).toBe(before);
    expect(existsSync(outputDir)).toBe(false);
    expect(existsSync('output')).toBe(false);
  });

  it('no options at all', async () => {
    await expect(runPipeline(pipeline, undefined as unknown as RunOptions)).rejects.toMatchObject({
      code: 'QL_CONFIG',
      message: 'runPipeline: its second argument must be the options, such as { registry: components }, and was given nothing',
    });
  });
});
