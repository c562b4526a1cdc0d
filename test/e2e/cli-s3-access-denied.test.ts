/**
 * Credentials that may read but not write the lake: the run stops at its output check, before any
 * request to the service, with QL_S3_ACCESS_DENIED (exit 2), and the hint names the permissions
 * the lake needs on its whole prefix (the README's "on the prefix"), not on the one folder of the
 * key that happened to be refused: granting that folder alone fails again at the next key.
 * s3rver on loopback behind a gate that answers every PUT 403 AccessDenied, as S3 does for a
 * policy without s3:PutObject; the built CLI and the embedded emulator at a frozen instant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Gate, type S3Gate } from '../helpers/s3-gate.js';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const DENIED = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

describe('run --output s3://… with credentials that cannot write', () => {
  const server = useS3Server();
  let gate: S3Gate;
  let puts = 0;
  beforeAll(async () => {
    gate = await startS3Gate(server().endpoint, (req, res) => {
      if (req.method !== 'PUT') return false;
      puts++;
      req.resume();
      req.on('end', () => res.writeHead(403, { 'content-type': 'application/xml' }).end(DENIED));
      return true;
    });
  });
  afterAll(() => {
    gate.close();
  });

  it('exits 2 with QL_S3_ACCESS_DENIED, the hint naming the lake prefix', async () => {
    const endpoint = gate.endpoint;
    const result = await runCli(
      ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', `s3://${server().bucket}/team/denied`, '--s3-endpoint', endpoint, '--clock', '2026-03-04T15:00:00Z', '--json', '--quiet'],
      { cwd: tempDir('ql-s3-denied-'), env: CREDENTIALS },
    );
    expect(result.code).toBe(2);
    const doc = JSON.parse(result.stdout) as { runs: { requestsTotal: number; error: { code: string; message: string; hint: string } }[] };
    const run = doc.runs[0]!;
    expect(run.requestsTotal).toBe(0);
    expect(run.error.code).toBe('QL_S3_ACCESS_DENIED');
    expect(run.error.message).toMatch(/^output s3:\/\/lake-test\/team\/denied: PutObject s3:\/\/lake-test\/team\/denied\/_quotelake\/probe\/write-[^:]+: access denied \(AccessDenied\)$/);
    expect(run.error.hint).toBe('grant these credentials s3:ListBucket on lake-test and s3:GetObject, s3:PutObject, s3:DeleteObject on s3://lake-test/team/denied/*');
    expect(puts).toBe(1);
  });
});
