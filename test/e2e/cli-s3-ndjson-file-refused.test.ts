/**
 * An NDJSON sink with a file `path` on an s3:// output is a usage error that touches nothing: it
 * once took the lake's lease, wrote a probe and a `failed` run record, then refused with exit 2.
 * Given after another pipeline, it stops the command before that one runs too. The built CLI,
 * s3rver behind a gate that counts requests, the embedded emulator.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { useCountingS3Gate } from '../helpers/s3-gate.js';
import { runCli, tempDir } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const NDJSON_FILE = `name: trades-file
source:
  type: trade-snapshot
  codes: [BTCUSDT]
sink:
  type: ndjson
  path: exports/{dataset}.ndjson
`;

describe('run of an ndjson file sink with --output s3://', () => {
  const { server, gate, requests, resetCount } = useCountingS3Gate();

  it('is exit 2 before any request to the store, after a pipeline given before it as well', async () => {
    const dir = tempDir('ql-s3-ndjson-');
    writeFileSync(join(dir, 'trades-file.yaml'), NDJSON_FILE);
    resetCount();
    const result = await runCli(['run', 'kline-update', 'trades-file.yaml', '--output', `s3://${server().bucket}/nd`, '--s3-endpoint', gate().endpoint, '--quiet'], { cwd: dir, env: CREDENTIALS });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `pipeline trades-file: ndjson sink path "exports/{dataset}.ndjson" is a file, which an s3:// output cannot hold: on an object store use the parquet or arrow sink, or path: stdout (output s3://${server().bucket}/nd)`,
    );
    expect(requests()).toBe(0);
    const listed = await server().client().send(new ListObjectsV2Command({ Bucket: server().bucket, Prefix: 'nd/' }));
    expect(listed.Contents ?? []).toEqual([]);
  });
});
