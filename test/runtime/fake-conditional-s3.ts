/**
 * A mocked S3 client that keeps objects in memory and answers conditional writes as AWS does
 * (If-None-Match: * → 412 when the key exists; If-Match → 412 on another ETag, 404 when gone), which
 * s3rver cannot. `beforeWrite` lets a test slip another writer's PUT in between a read and a write.
 */
import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';

const serviceError = (name: string, status: number): S3ServiceException =>
  new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: `${name} (mocked)` });

export function fakeConditionalS3() {
  const objects = new Map<string, { body: Uint8Array; etag: string; at: Date }>();
  let writes = 0;
  const hooks: {
    beforeWrite?: (key: string) => void;
    /** True: this PUT lands, but its answer is lost and the SDK sends it again (its conditions checked anew). */
    loseAnswer?: (key: string) => boolean;
  } = {};
  const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDMOCK', secretAccessKey: 'mock-secret' } });
  const mock = mockClient(client);
  const put = (key: string, body: Uint8Array) => {
    const etag = `"${createHash('md5').update(body).update(String(++writes)).digest('hex')}"`;
    objects.set(key, { body, etag, at: new Date(Date.UTC(2026, 2, 2)) });
    return etag;
  };
  const conditionalPut = (input: { Key: string; Body: Uint8Array; IfNoneMatch?: string; IfMatch?: string }) => {
    const existing = objects.get(input.Key);
    if (input.IfNoneMatch === '*' && existing) throw serviceError('PreconditionFailed', 412);
    if (input.IfMatch !== undefined) {
      if (!existing) throw serviceError('NoSuchKey', 404);
      if (existing.etag !== input.IfMatch) throw serviceError('PreconditionFailed', 412);
    }
    return { ETag: put(input.Key, new Uint8Array(input.Body)) };
  };
  mock.on(PutObjectCommand).callsFake((input: { Key: string; Body: Uint8Array; IfNoneMatch?: string; IfMatch?: string }) => {
    hooks.beforeWrite?.(input.Key);
    if (hooks.loseAnswer?.(input.Key) === true) conditionalPut(input);
    return conditionalPut(input);
  });
  mock.on(GetObjectCommand).callsFake((input: { Key: string }) => {
    const o = objects.get(input.Key);
    if (!o) throw serviceError('NoSuchKey', 404);
    return { ETag: o.etag, Body: { transformToByteArray: async () => o.body } };
  });
  mock.on(HeadObjectCommand).callsFake((input: { Key: string }) => {
    const o = objects.get(input.Key);
    if (!o) throw serviceError('NotFound', 404);
    return { ETag: o.etag, ContentLength: o.body.byteLength, LastModified: o.at };
  });
  mock.on(DeleteObjectCommand).callsFake((input: { Key: string; IfMatch?: string }) => {
    const o = objects.get(input.Key);
    if (input.IfMatch !== undefined && o && o.etag !== input.IfMatch) throw serviceError('PreconditionFailed', 412);
    objects.delete(input.Key);
    return {};
  });
  return {
    client,
    mock,
    objects,
    hooks,
    /** Another writer's unconditional PUT, as if from a second host. */
    putDirect: (key: string, text: string) => put(key, new Uint8Array(Buffer.from(text))),
  };
}
