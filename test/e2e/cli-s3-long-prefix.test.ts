/**
 * An s3:// prefix too long for the lake's own keys under it (S3 caps a key at 1024 bytes) is a
 * usage error, exit 2, before any request: it once fetched, then failed at its first write with
 * exit 1 and "run the same command again", which fails the same way. The longest prefix that
 * fits runs; under it, a pipeline whose name makes its checkpoint key too long is refused as well.
 * The built CLI, s3rver behind a gate that counts requests, the embedded emulator.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { MAX_S3_PREFIX_BYTES } from '../../src/core/s3-url.js';
import { useCountingS3Gate } from '../helpers/s3-gate.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-03-04T15:00:00Z';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const SEGMENT = 'a'.repeat(200);

describe('run --output s3://bucket/<a prefix too long for the lake keys>', () => {
  const { server, gate, requests, resetCount } = useCountingS3Gate();

  const run = (prefix: string, pipeline = 'kline-backfill', cwd = tempDir('ql-s3-long-')) =>
    runCli(['run', pipeline, '--codes', 'BTCUSDT', '--since', '1d', '--output', `s3://${server().bucket}/${prefix}`, '--s3-endpoint', gate().endpoint, '--clock', NOW, '--quiet'], {
      cwd,
      env: CREDENTIALS,
    });

  it('is exit 2 naming the limit and the bytes left, with no request to the store', async () => {
    resetCount();
    const result = await run([SEGMENT, SEGMENT, SEGMENT, SEGMENT, SEGMENT].join('/'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the prefix is 1004 bytes long');
    expect(result.stderr).toContain('an object key has at most 1024 bytes, which leaves 19 for the lake\'s own keys');
    expect(result.stderr).toContain(`write a prefix of at most ${MAX_S3_PREFIX_BYTES} bytes (${1004 - MAX_S3_PREFIX_BYTES} fewer)`);
    expect(result.stderr).not.toContain('run the same command again');
    expect(requests()).toBe(0);
  });

  it('runs with the longest prefix that fits', async () => {
    const prefix = [SEGMENT, SEGMENT, SEGMENT, SEGMENT, 'b'.repeat(MAX_S3_PREFIX_BYTES - 4 * 201)].join('/');
    expect(Buffer.byteLength(prefix)).toBe(MAX_S3_PREFIX_BYTES);
    const result = await run(prefix);
    expect(result.stderr).not.toContain('longer than 1024 bytes');
    expect(result.code).toBe(0);
    const listed = await server().client().send(new ListObjectsV2Command({ Bucket: server().bucket, Prefix: `${prefix}/kline/` }));
    expect((listed.Contents ?? []).length).toBeGreaterThan(0);
  });

  it('refuses, before any request, a pipeline whose name makes its checkpoint key too long', async () => {
    const name = 'n'.repeat(200);
    const cwd = tempDir('ql-s3-long-name-');
    writeFileSync(join(cwd, 'long.yaml'), `name: ${name}\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`);
    const prefix = [SEGMENT, SEGMENT, SEGMENT, SEGMENT, 'b'.repeat(MAX_S3_PREFIX_BYTES - 4 * 201)].join('/');
    resetCount();
    const result = await run(prefix, 'long.yaml', cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`pipeline ${name}: its checkpoint _quotelake/state/checkpoints/${name}.json under s3://${server().bucket}/`);
    expect(result.stderr).toContain(`makes an object key of ${MAX_S3_PREFIX_BYTES + 1 + 34 + 200} bytes, and S3 allows 1024: shorten the prefix or the pipeline's name by ${MAX_S3_PREFIX_BYTES + 1 + 34 + 200 - 1024} bytes`);
    expect(requests()).toBe(0);
  });
});
