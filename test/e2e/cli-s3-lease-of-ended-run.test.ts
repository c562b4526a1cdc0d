/**
 * A run that failed because the store went away (QL_S3_TRANSPORT, "running again resumes") could not
 * release its lease, so running again at once is refused until the lease expires. The refusal says
 * that the holder's process is gone from this host and when to run again, instead of only "if that
 * run is gone", and its hint (a run's and a state reset's) says so too, not "wait for it to end". The built
 * CLI, s3rver on loopback, the embedded emulator at a frozen instant.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

describe('a live lease left by a run whose process has ended on this host', () => {
  const server = useS3Server();

  it('is still refused (QL_OUTPUT_LOCKED, exit 1), saying the process is gone and when to run again', async () => {
    // A lake with a checkpoint, so that `state reset` below has one to reset and takes the lease for it.
    const first = await runCli(['run', 'kline-update', '--codes', 'BTCUSDT', '--clock', '2026-03-04T14:00:00Z', '--quiet', '--output', `s3://${server().bucket}/ended`, '--s3-endpoint', server().endpoint], {
      cwd: tempDir('ql-s3-ended-'),
      env: CREDENTIALS,
    });
    expect(first.code, first.stderr).toBe(0);
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const lease = { version: 1, runId: 'run-ended', pipeline: 'kline-backfill', host: hostname(), pid: gone, startedAt: expiresAt, renewedAt: expiresAt, expiresAt };
    await server()
      .client()
      .send(new PutObjectCommand({ Bucket: server().bucket, Key: 'ended/_quotelake/lock', Body: JSON.stringify(lease) }));

    const r = await runCli(['run', 'kline-update', '--codes', 'BTCUSDT', '--clock', '2026-03-04T15:00:00Z', '--quiet', '--json', '--output', `s3://${server().bucket}/ended`, '--s3-endpoint', server().endpoint], {
      cwd: tempDir('ql-s3-ended-'),
      env: CREDENTIALS,
    });
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { runs: { error: { code: string; message: string; hint: string } }[] };
    expect(doc.runs[0]!.error.code).toBe('QL_OUTPUT_LOCKED');
    expect(doc.runs[0]!.error.message).toContain(
      `no process ${gone} runs on this host, so that run has ended without releasing it: run again after ${expiresAt}, when the next run takes it over`,
    );
    // The hint agrees with the message: nothing is writing, so there is nothing to wait for the end of.
    const hint = `nothing is writing to this output now: run the same command again after ${expiresAt}; it then takes the lease over and finishes or sweeps what the ended run left`;
    expect(doc.runs[0]!.error.hint).toBe(hint);
    const reset = await runCli(['state', 'reset', '--output', `s3://${server().bucket}/ended`, '--s3-endpoint', server().endpoint, '--yes'], { cwd: tempDir('ql-s3-ended-'), env: CREDENTIALS });
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain(`hint: ${hint}\n`);
  });
});
