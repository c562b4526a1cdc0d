/**
 * The region requests to an S3-compatible endpoint are signed for: AWS_REGION, else the active
 * profile's (`region` in the shared config file), else us-east-1, as the README says. A store set
 * to a region (MinIO's, Ceph's) refuses a signature for another; before, with an endpoint, the
 * profile's region was passed over for us-east-1. The built CLI (`inspect`), s3rver on loopback
 * behind a gate that records each request's signing region (from its Authorization header's
 * credential scope) and forwards it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Gate, type S3Gate } from '../helpers/s3-gate.js';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

describe('the signing region with --s3-endpoint', () => {
  const server = useS3Server();
  let gate: S3Gate;
  let regions: string[] = [];
  beforeAll(async () => {
    gate = await startS3Gate(server().endpoint, (req) => {
      regions.push(/Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? 'unsigned');
      return false;
    });
  });
  afterAll(() => {
    gate.close();
  });

  const home = tempDir('ql-s3-region-');
  const config = join(home, 'config');
  writeFileSync(config, '[default]\nregion = eu-west-3\n\n[profile lake]\nregion = ap-southeast-2\n');
  const credentials = join(home, 'credentials');
  writeFileSync(credentials, '[lake]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n');
  const keys = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
  const inspect = async (env: Record<string, string>): Promise<string[]> => {
    // One object, so the prefix is an output (inspect refuses an empty one as missing).
    await server().client().send(new PutObjectCommand({ Bucket: server().bucket, Key: 'empty/note.txt', Body: 'x' }));
    regions = [];
    const endpoint = gate.endpoint;
    const result = await runCli(['inspect', `s3://${server().bucket}/empty`, '--s3-endpoint', endpoint], {
      cwd: home,
      env: { AWS_SHARED_CREDENTIALS_FILE: credentials, ...env },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return [...new Set(regions)];
  };

  it('takes the profile region, AWS_REGION before it, us-east-1 without either', async () => {
    expect(await inspect({ ...keys, AWS_CONFIG_FILE: config })).toEqual(['eu-west-3']);
    expect(await inspect({ AWS_CONFIG_FILE: config, AWS_PROFILE: 'lake' })).toEqual(['ap-southeast-2']);
    expect(await inspect({ ...keys, AWS_CONFIG_FILE: config, AWS_REGION: 'sa-east-1' })).toEqual(['sa-east-1']);
    expect(await inspect({ ...keys, AWS_CONFIG_FILE: join(home, 'no-such-config') })).toEqual(['us-east-1']);
  });

  it('a region that is no region name (a blank in it) is exit 2, QL_S3_REGION, naming it: not "the store answered with Error"', async () => {
    const result = await runCli(['inspect', `s3://${server().bucket}/empty`, '--s3-endpoint', gate.endpoint, '--json'], {
      cwd: home,
      env: { ...keys, AWS_CONFIG_FILE: config, AWS_REGION: 'us east-1' },
    });
    expect(result.code, result.stderr).toBe(2);
    const doc = JSON.parse(result.stdout) as { error: { code: string; message: string; hint: string } };
    expect(doc.error.code).toBe('QL_S3_REGION');
    expect(doc.error.message).toContain('the AWS region "us east-1" is not a region name');
    expect(doc.error.hint).toBe('fix AWS_REGION, AWS_DEFAULT_REGION or the region of the profile in ~/.aws/config');
  });
});
