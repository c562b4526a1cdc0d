/**
 * A run on an S3 lake removes the probe objects a killed run left once they are older than a lease,
 * by the store's real time whatever `--clock` says: the store stamps objects with real time, and a
 * run's shifted clock (here months before the objects were written) once kept every stale probe.
 * The built CLI, s3rver on loopback and the embedded emulator at a frozen instant.
 */
import { describe, expect, it } from 'vitest';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-03-04T15:00:00Z';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

describe('a run on S3 with --clock and probes a killed run left', () => {
  const server = useS3Server();

  it('deletes the probes written more than a lease ago by real time, and keeps a young one', async () => {
    const client = server().client();
    const put = (key: string) => client.send(new PutObjectCommand({ Bucket: server().bucket, Key: key, Body: 'quotelake write probe\n' }));
    await put('probes/_quotelake/probe/write-killed');
    await put('probes/_quotelake/probe/conditional-create-lease-killed');
    await put('probes/_quotelake/probe/write-in-flight');
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000);
    await server().setModifiedAt('probes/_quotelake/probe/write-killed', fiveMinutesAgo);
    await server().setModifiedAt('probes/_quotelake/probe/conditional-create-lease-killed', fiveMinutesAgo);
    // Stamped by this process's clock too, not the file system's: under a shifted system clock
    // (faketime) the two differ by days, and the test is about the run's --clock, not that skew.
    await server().setModifiedAt('probes/_quotelake/probe/write-in-flight', new Date());

    const result = await runCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', `s3://${server().bucket}/probes`, '--s3-endpoint', server().endpoint, '--clock', NOW, '--quiet', '--log-level', 'info', '--log-format', 'json'],
      { cwd: tempDir('ql-s3-probes-'), env: CREDENTIALS },
    );
    expect(result.code).toBe(0);
    const removed = result.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { action?: string; objects?: number })
      .find((l) => l.action === 'probes-removed');
    expect(removed?.objects).toBe(2);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: server().bucket, Prefix: 'probes/_quotelake/probe/' }));
    expect((listed.Contents ?? []).map((o) => o.Key)).toEqual(['probes/_quotelake/probe/write-in-flight']);
  });
});
