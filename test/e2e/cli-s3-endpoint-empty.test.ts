/**
 * `--s3-endpoint` given no value (last on the line, `--s3-endpoint=`, `--s3-endpoint "$UNSET"`) is a
 * usage error naming the option, before anything is read or written: it fell back in silence to the
 * environment's endpoint, else AWS itself, so a run meant for MinIO went to a bucket of that name on
 * AWS (or failed for want of a region, which said nothing of the missing endpoint). The built CLI.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const SAID = 'quotelake: --s3-endpoint needs a value: http(s)://host[:port] (leave the option out for AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else AWS itself)\n';

describe('--s3-endpoint without a value', () => {
  it.each([
    ['run, last on the line', ['run', 'kline-backfill', '--output', 's3://lake/q', '--quiet', '--s3-endpoint']],
    ['repair, --s3-endpoint=', ['repair', '--output', 's3://lake/q', '--dry-run', '--s3-endpoint=']],
    ['inspect, an empty word', ['inspect', 's3://lake/q', '--s3-endpoint', '']],
    ['compact, before another option', ['compact', '--output', 's3://lake/q', '--s3-endpoint', '--log-level', 'info']],
  ])('%s: exit 2 naming the option', async (_, args) => {
    const r = await runCli(args, { cwd: tempDir('ql-s3-endpoint-empty-'), env: CREDENTIALS });
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(SAID), r.stderr).toBe(true);
  });
});
