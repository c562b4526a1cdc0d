/**
 * Compare-and-swap on one object: S3's If-Match answers on a mocked client (s3rver ignores the
 * header), and the claim-based form over any LakeStorage on a local folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conditionalWritesOf, conditionalWritesOver, hasConditionalWrites } from '../../src/lake/storage/conditional-writes.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';

const serviceError = (name: string, status: number): S3ServiceException =>
  new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: `${name} (mocked)` });

function mocked() {
  const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDMOCK', secretAccessKey: 'mock-secret' } });
  return { mock: mockClient(client), storage: new S3Storage(client, 's3://lake-bucket/prod') };
}

describe('S3Storage conditional writes (If-Match)', () => {
  it('replaceIf sends If-Match and returns the new ETag; 412 and 404 are a refusal, 409 is retried', async () => {
    const { mock, storage } = mocked();
    mock.on(PutObjectCommand).resolvesOnce({ ETag: '"e2"' }).rejectsOnce(serviceError('PreconditionFailed', 412)).rejectsOnce(serviceError('NoSuchKey', 404)).rejectsOnce(serviceError('ConditionalRequestConflict', 409)).resolvesOnce({ ETag: '"e3"' });
    expect(await storage.replaceIf('_quotelake/lock', 'a', '"e1"')).toBe('"e2"');
    expect(await storage.replaceIf('_quotelake/lock', 'b', '"e1"')).toBeUndefined();
    expect(await storage.replaceIf('_quotelake/lock', 'c', '"e1"')).toBeUndefined();
    expect(await storage.replaceIf('_quotelake/lock', 'd', '"e2"')).toBe('"e3"');
    expect(mock.commandCalls(PutObjectCommand).map((c) => [c.args[0].input.Key, c.args[0].input.IfMatch])).toEqual([
      ['prod/_quotelake/lock', '"e1"'],
      ['prod/_quotelake/lock', '"e1"'],
      ['prod/_quotelake/lock', '"e1"'],
      ['prod/_quotelake/lock', '"e2"'],
      ['prod/_quotelake/lock', '"e2"'],
    ]);
  });

  it('deleteIf sends If-Match: true when deleted, false on 412; other errors are reported', async () => {
    const { mock, storage } = mocked();
    mock.on(DeleteObjectCommand).resolvesOnce({}).rejectsOnce(serviceError('PreconditionFailed', 412)).rejectsOnce(serviceError('AccessDenied', 403));
    expect(await storage.deleteIf('_quotelake/lock', '"e1"')).toBe(true);
    expect(await storage.deleteIf('_quotelake/lock', '"e1"')).toBe(false);
    await expect(storage.deleteIf('_quotelake/lock', '"e1"')).rejects.toMatchObject({ code: 'QL_S3_ACCESS_DENIED' });
    expect(mock.commandCalls(DeleteObjectCommand)[0]!.args[0].input).toMatchObject({ Key: 'prod/_quotelake/lock', IfMatch: '"e1"' });
    expect(hasConditionalWrites(storage)).toBe(true);
    expect(conditionalWritesOf(storage)).toBe(storage);
  });
});

describe('conditional writes over a local folder (claim by put-if-absent)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ql-cas-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('replaces only the version read; of many replacers of one version exactly one wins', async () => {
    const storage = localStorage(dir);
    const cas = conditionalWritesOver(storage);
    expect(hasConditionalWrites(storage)).toBe(false);
    await storage.publish('k', 'v1');
    const v1 = (await cas.readVersioned('k'))!.version;
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((x) => cas.replaceIf('k', x, v1)));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    const now = await cas.readVersioned('k');
    expect(results.find((r) => r !== undefined)).toBe(now!.version);
    expect(await cas.replaceIf('k', 'late', v1)).toBeUndefined();
    expect(await cas.deleteIf('k', v1)).toBe(false);
    expect(await cas.deleteIf('k', now!.version)).toBe(true);
    expect(await storage.list('')).toEqual([]); // no claim left behind
    expect(await cas.replaceIf('k', 'x', now!.version)).toBeUndefined();
  });
});
