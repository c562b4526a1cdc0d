/**
 * On S3 a dataset keeps the kind it was created with when a run does not say `--table`: a dataset
 * written as plain hive files stays hive (the default on object storage, delta, would be refused
 * there), as one with a Delta log stays Delta. Before, only a local folder's log was looked at, so
 * every later run of a hive dataset on S3 failed unless it repeated `--table hive`.
 * The built CLI, s3rver on loopback and the embedded emulator at a frozen instant.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir, type CliResult } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

interface RunDoc {
  exitCode: number;
  runs: { rows: Record<string, { written: number; merged: number }> }[];
  error?: { code: string; message: string };
}

describe('run --output s3://… without --table on an existing dataset', () => {
  const server = useS3Server();
  const work = tempDir('ql-s3-kind-');
  const run = (prefix: string, clock: string, extra: string[] = []): Promise<CliResult> =>
    runCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2026-03-04T12:00:00Z', '--output', `s3://${server().bucket}/${prefix}`, '--s3-endpoint', server().endpoint, '--clock', clock, '--json', '--quiet', ...extra],
      { cwd: work, env: CREDENTIALS },
    );
  const keys = async (prefix: string): Promise<string[]> => {
    const page = await server().client().send(new ListObjectsV2Command({ Bucket: server().bucket, Prefix: `${prefix}/kline/` }));
    return (page.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1));
  };

  it('keeps a hive dataset hive, and refuses --table delta on it', async () => {
    const first = await run('hive', '2026-03-04T15:00:00Z', ['--table', 'hive']);
    expect(first.code).toBe(0);
    const second = await run('hive', '2026-03-04T16:00:00Z');
    expect(second.stderr).not.toMatch(/without a Delta log/);
    expect(second.code).toBe(0);
    const doc = JSON.parse(second.stdout) as RunDoc;
    // 15:00 .. 16:00: the 1m bars after the last one held (15:00 was forming: merged), and the 16:00 1h bar.
    expect(doc.runs[0]!.rows.kline!.written).toBe(61);
    expect((await keys('hive')).filter((k) => k.includes('_delta_log'))).toEqual([]);

    const delta = await run('hive', '2026-03-04T17:00:00Z', ['--table', 'delta']);
    expect(delta.code).toBe(2);
    expect(delta.stderr).toMatch(/kline already holds \d+ Parquet files written without a Delta log/);
  });

  it('keeps a Delta table Delta', async () => {
    expect((await run('delta', '2026-03-04T15:00:00Z')).code).toBe(0);
    expect((await run('delta', '2026-03-04T16:00:00Z')).code).toBe(0);
    expect((await keys('delta')).filter((k) => k.startsWith('kline/_delta_log/')).sort()).toEqual([
      'kline/_delta_log/00000000000000000000.json',
      'kline/_delta_log/00000000000000000001.json',
    ]);
  });
});
