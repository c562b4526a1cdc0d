/**
 * A run into an S3-compatible store (`--s3-endpoint`) that meets a live file lost from the bucket
 * names the `repair` to paste: with the endpoint, or the pasted command looks for the bucket on AWS
 * (here: no region configured, exit 2). The built CLI, s3rver on loopback, the embedded emulator at
 * frozen instants.
 */
import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const WINDOW = ['--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--quiet', '--json'];

describe('the repair a run on an S3-compatible store names', () => {
  const server = useS3Server();

  it('carries --s3-endpoint, and pasted as it is, it reaches the lake', async () => {
    const lake = `s3://${server().bucket}/hint`;
    const cwd = tempDir('ql-s3-repair-hint-');
    const run = (clock: string) => runCli(['run', 'kline-backfill', ...WINDOW, '--clock', clock, '--output', lake, '--s3-endpoint', server().endpoint], { cwd, env: CREDENTIALS });
    const first = await run('2026-11-11T12:00:00Z');
    expect(first.code, first.stderr).toBe(0);
    const manifest = await server()
      .client()
      .send(new GetObjectCommand({ Bucket: server().bucket, Key: 'hint/_quotelake/manifests/kline.parquet.json' }));
    const { files } = JSON.parse(await manifest.Body!.transformToString()) as { files: { path: string }[] };
    const lost = files.find((f) => f.path.startsWith('interval=1m/year=2026/date=2026-11-11/'))!;
    await server()
      .client()
      .send(new DeleteObjectCommand({ Bucket: server().bucket, Key: `hint/kline/${lost.path}` }));

    const blocked = await run('2026-11-11T12:30:00Z');
    expect(blocked.code).toBe(1);
    const { hint } = (JSON.parse(blocked.stdout) as { runs: { error: { hint: string } }[] }).runs[0]!.error;
    const command = `quotelake repair --output ${lake} --s3-endpoint ${server().endpoint} --dry-run`;
    expect(hint).toContain(`drop it with "${command}"`);

    const pasted = await runCli(command.split(' ').slice(1), { cwd, env: CREDENTIALS });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toContain(`kline/${lost.path}: missing;`);
  });
});
