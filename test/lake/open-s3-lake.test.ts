/**
 * A program writes a lake to S3 through the package's entry point alone: openS3Lake gives the
 * storage a run and the readers take, on a real S3-compatible server (s3rver on loopback).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { components, coverageOfOutput, createClient, ManualClock, openS3Lake, runPipeline, S3LocationError, startEmulator } from '../../src/index.js';
import { useS3Server } from '../helpers/s3-server.js';

const server = useS3Server();
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('openS3Lake (the library entry point of an S3 output)', () => {
  it('opens an s3:// output that runPipeline writes and coverageOfOutput reads back', async () => {
    const clock = new ManualClock('2026-11-20T00:00:00Z');
    const emulator = await startEmulator({ clock, log: () => {} });
    const stateDir = await mkdtemp(join(tmpdir(), 'ql-open-s3-'));
    scratch.push(stateDir);
    const client = createClient({ baseUrl: emulator.url, token: 'demo-professional', plan: 'professional', stateDir, clock });
    const url = `s3://${server().bucket}/library-lake`;
    const lake = await openS3Lake(url, { endpoint: server().endpoint, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    try {
      const pipeline = {
        name: 'btc-hours',
        source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2026-11-18T00:00:00Z' },
        transforms: [{ type: 'parse-decimals' }],
        sink: { type: 'parquet' },
      };
      const result = await runPipeline(pipeline, { registry: components, client, outputDir: url, storage: lake.storage, clock });
      expect(result.status).toBe('succeeded');
      expect(result.manifest.rows.kline).toMatchObject({ written: 49, rejected: 0 }); // the bar opening at the clock is forming, and included
      // The run's files and its state are in the bucket, none of them on this host.
      const keys = await lake.storage.list('');
      expect(keys.some((k) => /^kline\/.*\.parquet$/.test(k))).toBe(true);
      expect(keys.some((k) => k.startsWith('_quotelake/state/runs/'))).toBe(true);
      const [series] = (await coverageOfOutput(lake.storage)).series;
      expect(series).toMatchObject({ code: 'BTCUSDT', interval: '1h', bars: 49, first: Date.parse('2026-11-18T00:00:00Z'), last: Date.parse('2026-11-20T00:00:00Z') });
      expect(series?.gaps).toEqual([]);
    } finally {
      lake.close();
      await client.close();
      await emulator.close();
    }
  });

  it('refuses a location that is not an s3:// URL before any client exists', async () => {
    await expect(openS3Lake('s3://', {})).rejects.toBeInstanceOf(S3LocationError);
    await expect(openS3Lake('/tmp/lake', {})).rejects.toBeInstanceOf(S3LocationError);
  });
});
