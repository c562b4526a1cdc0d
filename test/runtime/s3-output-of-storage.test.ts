/**
 * A program's S3 run names the lake it writes: an outputDir of another s3:// lake than the storage
 * opened (openS3Lake) is refused before anything is written, and without an outputDir the run names
 * the storage's lake, not `output`. Before, both ran into the storage's lake while every line, the
 * run-end and the run record's place said the other name. Through the package's entry point,
 * against the emulator and s3rver on loopback.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { components, createClient, definePipeline, ManualClock, openS3Lake, runPipeline, startEmulator, type EmulatorHandle, type OpenedS3Lake, type ServiceClient } from '../../src/index.js';
import { useS3Server } from '../helpers/s3-server.js';

const server = useS3Server();
const pipeline = definePipeline({
  name: 'btc-hours',
  source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2d' },
  transforms: [{ type: 'parse-decimals' }],
  sink: { type: 'parquet' },
});
let emulator: EmulatorHandle;
let client: ServiceClient;
const clock = new ManualClock('2026-11-20T00:00:00Z');
let n = 0;

beforeAll(async () => {
  emulator = await startEmulator({ clock, log: () => {} });
  client = createClient({ baseUrl: emulator.url, token: 'demo-professional', plan: 'professional', stateDir: await mkdtemp(join(tmpdir(), 'ql-s3-out-')), clock });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

async function lakeAt(url: string): Promise<OpenedS3Lake> {
  return openS3Lake(url, { endpoint: server().endpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
}

describe('a run given an S3 lake', () => {
  it('refuses an outputDir of another lake, before it writes anything', async () => {
    const url = `s3://${server().bucket}/lake-${++n}`;
    const lake = await lakeAt(url);
    try {
      await expect(runPipeline(pipeline, { registry: components, client, clock, storage: lake.storage, outputDir: `s3://${server().bucket}/other` })).rejects.toMatchObject({
        code: 'QL_CONFIG',
        message: `output s3://${server().bucket}/other is not the lake its storage opens (${url}): the run would write into ${url} and name s3://${server().bucket}/other in its lines`,
      });
      expect(await lake.storage.list('')).toEqual([]);
    } finally {
      lake.close();
    }
  });

  it('the same lake written another way (a trailing slash) is that lake; none given names the storage', async () => {
    const url = `s3://${server().bucket}/lake-${++n}`;
    const lake = await lakeAt(url);
    try {
      const slashed = await runPipeline(pipeline, { registry: components, client, clock, storage: lake.storage, outputDir: `${url}/` });
      expect(slashed.manifest.rows.kline).toEqual({ received: 49, written: 49, merged: 0, rejected: 0 });
      const lines: Record<string, unknown>[] = [];
      const log = (_m: string, f?: Record<string, unknown>) => void lines.push(f ?? {});
      const unnamed = await runPipeline(pipeline, { registry: components, client, clock, storage: lake.storage, logger: { debug: log, info: log, warn: log, error: log } });
      expect(lines.find((l) => l.event === 'run-start')).toMatchObject({ output: url, stateDir: `${url}/_quotelake/state` });
      expect(unnamed.manifestPath).toBe(`${url}/_quotelake/state/runs/${unnamed.runId}.json`);
    } finally {
      lake.close();
    }
  });
});
