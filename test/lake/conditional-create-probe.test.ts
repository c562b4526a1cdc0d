/** The probe says whether putIfAbsent excludes a second writer, and leaves nothing behind. */
import { PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { conditionalCreateHolds } from '../../src/lake/storage/conditional-create-probe.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { startS3Server } from '../helpers/s3-server.js';
import { tempDir } from '../sinks/helpers.js';

describe('conditionalCreateHolds', () => {
  it('holds on the local file system (link refuses an existing name)', async () => {
    const s = localStorage(await tempDir('ql-probe-'));
    expect(await conditionalCreateHolds(s, 'r1')).toBe(true);
    expect(await s.list('')).toEqual([]);
  });

  it('does not hold on s3rver, which accepts If-None-Match and ignores it', async () => {
    const server = await startS3Server();
    try {
      const s = new S3Storage(server.client(), `s3://${server.bucket}/lake`);
      expect(await conditionalCreateHolds(s, 'r1')).toBe(false);
      expect(await s.list('')).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('holds on a store that answers 412 to the second create (S3 since 2024; mocked)', async () => {
    const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
    const mock = mockClient(client);
    mock.on(PutObjectCommand).resolvesOnce({}).rejectsOnce(new S3ServiceException({ name: 'PreconditionFailed', $fault: 'client', $metadata: { httpStatusCode: 412 }, message: 'At least one of the pre-conditions you specified did not hold' }));
    expect(await conditionalCreateHolds(new S3Storage(client, 's3://lake-bucket'), 'r2')).toBe(true);
    expect(mock.commandCalls(PutObjectCommand)[0]!.args[0].input.Key).toBe('_quotelake/probe/conditional-create-r2');
  });
});
