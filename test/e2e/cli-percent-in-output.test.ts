/**
 * A literal `%` in an output's location is part of the name, never an escape: `s3://b/data%20x/100%/`
 * writes keys under `data%20x/100%/` (as `aws s3` reads the same URL), and a folder `100%/data%20x`
 * is that folder. A second run finds the first's checkpoints there and goes on from them. The built
 * CLI, the embedded emulator on frozen clocks, s3rver on loopback.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const FIRST = '2026-11-25T12:00:00Z';
const LATER = '2026-11-25T12:10:00Z';

interface RunDoc {
  runs: { rows: { kline: { written: number; merged: number } } }[];
}

const written = (stdout: string): number => (JSON.parse(stdout) as RunDoc).runs[0]!.rows.kline.written;

describe('a literal % in the output location', () => {
  const server = useS3Server();

  it('s3://bucket/data%20x/100%/: every key is under that prefix exactly, and a second run goes on from the first', async () => {
    const { bucket, endpoint } = server();
    const run = (clock: string) =>
      runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--output', `s3://${bucket}/data%20x/100%/`, '--s3-endpoint', endpoint, '--clock', clock, '--json'], {
        env: CREDENTIALS,
      });
    const first = await run(FIRST);
    expect(first.code, first.stderr).toBe(0);
    expect(written(first.stdout)).toBe(124); // 121 one-minute bars and 3 hourly over 2 h
    const second = await run(LATER);
    expect(second.code, second.stderr).toBe(0);
    expect(written(second.stdout)).toBe(10); // only the ten minutes since: the checkpoints were read back

    const listed = await server().client().send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (listed.Contents ?? []).map((o) => o.Key!);
    expect(keys).toContain('data%20x/100%/_quotelake/layout.json');
    expect(keys).toContain('data%20x/100%/_quotelake/state/checkpoints/kline-backfill.json');
    expect(keys.filter((k) => k.startsWith('data%20x/100%/kline/') && k.endsWith('.parquet')).length).toBeGreaterThan(0);
    expect(keys.filter((k) => !k.startsWith('data%20x/100%/'))).toEqual([]);

    const inspect = await runCli(['inspect', `s3://${bucket}/data%20x/100%/`, '--s3-endpoint', endpoint, '--json'], { env: CREDENTIALS });
    expect(inspect.code, inspect.stderr).toBe(0);
    const rows = (JSON.parse(inspect.stdout) as { datasets: { series: { rows: number }[] }[] }).datasets.flatMap((d) => d.series).reduce((a, s) => a + s.rows, 0);
    expect(rows).toBe(134);
  });

  it('a folder 100%/data%20x: written under that name, nothing under a decoded one', async () => {
    const root = tempDir('ql-percent-');
    const output = join(root, '100%', 'data%20x');
    const r = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--output', output, '--clock', FIRST, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(written(r.stdout)).toBe(124);
    expect(readdirSync(root)).toEqual(['100%']);
    expect(readdirSync(join(root, '100%'))).toEqual(['data%20x']);
    expect(existsSync(join(output, '_quotelake', 'layout.json'))).toBe(true);
    expect(existsSync(join(output, '.state', 'checkpoints', 'kline-backfill.json'))).toBe(true);
  });
});
