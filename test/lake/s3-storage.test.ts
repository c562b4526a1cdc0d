/**
 * What is S3's own in the S3 backend: the location and key checks, the client's configuration,
 * multipart uploads on a real server, and the answers s3rver cannot give (412/409 of a conditional
 * write, access denied, no bucket), on a mocked client. Retries are the SDK's, so they are tested
 * over real HTTP: aws-sdk-client-mock replaces `send`, which bypasses the SDK's retry middleware.
 */
import { createServer, request, type Server } from 'node:http';
import { once } from 'node:events';
import { type AddressInfo } from 'node:net';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvironmentError, PathOutsideRootError, S3LocationError } from '../../src/core/errors.js';
import { s3ClientFor } from '../../src/lake/storage/s3-client.js';
import { copySource, objectKey, parseS3Url } from '../../src/lake/storage/s3-location.js';
import { MIN_PART_BYTES, S3Storage } from '../../src/lake/storage/s3-storage.js';
import { useS3Server } from '../helpers/s3-server.js';

const serviceError = (name: string, status: number): S3ServiceException =>
  new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status }, message: `${name} (mocked)` });

/** A fresh mocked client: every send is answered by the mock, never by the network. */
function mocked() {
  const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDMOCK', secretAccessKey: 'mock-secret-never-shown' } });
  return { client, mock: mockClient(client), storage: new S3Storage(client, 's3://lake-bucket/prod') };
}

describe('s3:// locations and object keys', () => {
  it('parses a bucket and a prefix, with or without the trailing slash', () => {
    expect(parseS3Url('s3://lake-bucket')).toEqual({ bucket: 'lake-bucket', prefix: '' });
    expect(parseS3Url('s3://lake-bucket/')).toEqual({ bucket: 'lake-bucket', prefix: '' });
    expect(parseS3Url('s3://lake.data-01/quotes/prod')).toEqual({ bucket: 'lake.data-01', prefix: 'quotes/prod/' });
    expect(parseS3Url('s3://lake.data-01/quotes/prod/')).toEqual({ bucket: 'lake.data-01', prefix: 'quotes/prod/' });
  });

  it.each([
    ['https://lake-bucket/x', /starts with s3:\/\//],
    ['s3://ab', /3 to 63 characters/],
    ['s3://Lake_Bucket', /lowercase letters, digits/],
    ['s3://lake..bucket', /no two dots/],
    ['s3://192.168.1.10', /not an IP address/],
    ['s3://xn--lake', /cannot start with xn--/],
    ['s3://lake-s3alias', /cannot end with -s3alias/],
    ['s3://lake-bucket/a//b', /the prefix has an empty segment/],
    ['s3://lake-bucket//b', /the prefix has an empty segment/],
    ['s3://lake-bucket/a/../b', /the prefix has a "\.\." segment/],
    ['s3://lake-bucket/a/./b', /the prefix has a "\." segment/],
    ['s3://lake-bucket/a\tb', /the prefix contains a control character/],
    ['s3://lake-bucket/a\\b', /backslash/],
    ['s3://lake-bucket/a?versionId=1', /\? or #/],
  ])('refuses %j', (url, problem) => {
    expect(() => parseS3Url(url)).toThrow(S3LocationError);
    expect(() => parseS3Url(url)).toThrow(problem);
  });

  it('refuses credentials in the URL without repeating them', () => {
    let error: unknown;
    try {
      parseS3Url('s3://AKIAEXAMPLE:wJalrSECRET@lake-bucket/prod');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(S3LocationError);
    expect((error as S3LocationError).code).toBe('QL_S3_LOCATION');
    expect((error as Error).message).toMatch(/credentials and ports do not belong in the URL/);
    expect((error as Error).message).not.toMatch(/AKIAEXAMPLE|wJalrSECRET/);
  });

  it('turns a lake key into an object key only when every segment is a plain name', () => {
    const at = parseS3Url('s3://lake-bucket/prod');
    expect(objectKey(at, 'kline/interval=1m/date=2026-11-21/part-r1-00001.parquet')).toBe('prod/kline/interval=1m/date=2026-11-21/part-r1-00001.parquet');
    for (const bad of ['a//b', 'a/./b', 'a/../a/b', 'a/', '/a', 'a\u0001b', 'a\u007fb', '', `${'x/'.repeat(510)}y`]) {
      expect(() => objectKey(at, bad), JSON.stringify(bad)).toThrow(PathOutsideRootError);
    }
    expect(() => objectKey(at, `${'x/'.repeat(510)}y`)).toThrow(/longer than 1024 bytes/);
  });

  it('URL-encodes a copy source so % stays itself and = stays readable by every store', () => {
    expect(copySource('lake-bucket', 'prod/trade/code=A%2FB%25C/p q+r?.parquet')).toBe('lake-bucket/prod/trade/code=A%252FB%2525C/p%20q%2Br%3F.parquet');
  });
});

describe('s3ClientFor', () => {
  it('uses path style and checksums only when required for an endpoint from the option or the environment', async () => {
    const fromEnv = s3ClientFor({}, { AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9001/' });
    expect(fromEnv.config.forcePathStyle).toBe(true);
    expect(await fromEnv.config.region()).toBe('us-east-1'); // an endpoint and no region: the fallback
    expect(await fromEnv.config.requestChecksumCalculation()).toBe('WHEN_REQUIRED');
    expect(await fromEnv.config.responseChecksumValidation()).toBe('WHEN_REQUIRED');
    const endpoint = await fromEnv.config.endpoint!();
    expect(`${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`).toBe('http://127.0.0.1:9001'); // the S3-specific variable wins
    const explicit = s3ClientFor({ endpoint: 'https://minio.internal:9000', region: 'eu-west-3' }, { AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_REGION: 'us-west-2' });
    expect((await explicit.config.endpoint!()).hostname).toBe('minio.internal');
    expect(await explicit.config.region()).toBe('eu-west-3');
    expect(await explicit.config.maxAttempts()).toBe(5);
    expect(explicit.config.retryMode).toBe('standard');
  });

  it('leaves AWS itself to virtual-hosted style and the default checksums, the region from the environment', async () => {
    const aws = s3ClientFor({}, { AWS_REGION: 'eu-central-1' });
    expect(aws.config.forcePathStyle).toBe(false);
    expect(await aws.config.region()).toBe('eu-central-1');
    expect(aws.config.endpoint).toBeUndefined();
  });

  it('refuses an endpoint carrying credentials, without repeating them', () => {
    expect(() => s3ClientFor({ endpoint: 'http://AKIAEXAMPLE:topsecret@127.0.0.1:9000' })).toThrow(/must not carry credentials/);
    expect(() => s3ClientFor({ endpoint: 'http://AKIAEXAMPLE:topsecret@127.0.0.1:9000' })).not.toThrow(/topsecret|AKIAEXAMPLE/);
    expect(() => s3ClientFor({ endpoint: 'ftp://127.0.0.1' })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => s3ClientFor({ endpoint: 'not a url' })).toThrow(S3LocationError);
  });

  it('refuses an endpoint with a path (the bucket goes in the s3:// URL), and takes a trailing slash', async () => {
    expect(() => s3ClientFor({ endpoint: 'http://127.0.0.1:9000/lake' })).toThrow('http://127.0.0.1:9000/lake: an S3 endpoint has no path: the bucket and prefix go in the s3:// URL');
    expect(() => s3ClientFor({}, { AWS_ENDPOINT_URL: 'https://minio.example/s3/' })).toThrow(/an S3 endpoint has no path/);
    const aws = s3ClientFor({ endpoint: 'http://127.0.0.1:9000/' });
    expect(await aws.config.endpoint!()).toMatchObject({ hostname: '127.0.0.1', port: 9000, path: '/' });
  });
});

describe('S3Storage on an S3 server', () => {
  const server = useS3Server();

  /** The commands a client sends, in order (a middleware at the first step, so each is counted once). */
  function recorded(client: S3Client): string[] {
    const seen: string[] = [];
    client.middlewareStack.add((next, context) => async (args) => {
      seen.push(context.commandName ?? '?');
      return next(args);
    }, { step: 'initialize' });
    return seen;
  }

  it('uploads a body above the threshold in parts and reads it back byte-identical', async () => {
    const client = server().client();
    const commands = recorded(client);
    const s = new S3Storage(client, `s3://${server().bucket}/multipart`, { multipartThresholdBytes: MIN_PART_BYTES, partSizeBytes: MIN_PART_BYTES, queueSize: 2 });
    const body = Buffer.alloc(2 * MIN_PART_BYTES + 12345);
    for (let i = 0; i + 4 <= body.length; i += 4) body.writeUInt32LE((i * 2654435761) >>> 0, i); // not compressible, every part distinct
    await s.put('kline/interval=1m/part-r1-00001.parquet', body);
    expect(commands.filter((c) => c === 'UploadPartCommand')).toHaveLength(3);
    expect(commands).toContain('CompleteMultipartUploadCommand');
    expect(await s.size('kline/interval=1m/part-r1-00001.parquet')).toBe(body.length);
    expect(Buffer.from((await s.read('kline/interval=1m/part-r1-00001.parquet'))!).equals(body)).toBe(true);
    // A footer read at the end of the multipart object.
    expect(Buffer.from(await s.readRange('kline/interval=1m/part-r1-00001.parquet', body.length - 8, 64)).equals(body.subarray(body.length - 8))).toBe(true);
  });

  it('streams a body that is not in memory in parts, and a small body in one PUT', async () => {
    const client = server().client();
    const commands = recorded(client);
    const s = new S3Storage(client, `s3://${server().bucket}/stream`, { partSizeBytes: MIN_PART_BYTES, queueSize: 1 });
    const chunk = (i: number) => Buffer.alloc(1024 * 1024, i);
    async function* chunks() {
      for (let i = 0; i < 11; i++) yield chunk(i);
    }
    await s.putStream('trade/part-1.parquet', chunks());
    const back = Buffer.from((await s.read('trade/part-1.parquet'))!);
    expect(back.length).toBe(11 * 1024 * 1024);
    expect(back.equals(Buffer.concat(Array.from({ length: 11 }, (_, i) => chunk(i))))).toBe(true);
    expect(commands.filter((c) => c === 'UploadPartCommand')).toHaveLength(3);
    commands.length = 0;
    await s.publish('_quotelake/manifests/trade.parquet.json', '{}');
    expect(commands).toEqual(['PutObjectCommand']);
  });

  it('the test server keeps a PUT whole, as S3 does: a client gone mid-body leaves no object', async () => {
    const put = (key: string, declared: number, sent: Buffer) =>
      new Promise<number | 'gone'>((resolve, reject) => {
        const req = request(`${server().endpoint}/${server().bucket}/torn/${key}`, { method: 'PUT', headers: { 'content-length': declared } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' || req.destroyed ? resolve('gone') : reject(e)));
        req.write(sent, () => {
          if (sent.length === declared) req.end();
          else setTimeout(() => (req.destroy(), resolve('gone')), 50);
        });
      });
    expect(await put('whole', 10, Buffer.from('0123456789'))).toBe(200);
    expect(await put('cut', 1000, Buffer.alloc(100, 1))).toBe('gone');
    const s = new S3Storage(server().client(), `s3://${server().bucket}/torn`);
    expect(Buffer.from((await s.read('whole'))!).toString()).toBe('0123456789');
    // The server saw the connection close before the body was whole: it stores nothing.
    await new Promise((r) => setTimeout(r, 100));
    expect(await s.read('cut')).toBeUndefined();
    expect(await s.list('')).toEqual(['whole']);
  });

  it('names its root without credentials and has no local path', () => {
    const s = new S3Storage(server().client(), `s3://${server().bucket}/a/b/`);
    expect(s.root).toBe(`s3://${server().bucket}/a/b`);
    expect(s.localPath()).toBeUndefined();
  });

  it('maps a bucket that does not exist to QL_S3_NO_BUCKET, naming it', async () => {
    const s = new S3Storage(server().client(), 's3://no-such-lake/prod');
    const error = await s.put('kline/p.parquet', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).code).toBe('QL_S3_NO_BUCKET');
    expect((error as Error).message).toBe('PutObject s3://no-such-lake/prod/kline/p.parquet: bucket no-such-lake does not exist');
    expect((error as EnvironmentError).fix).toMatch(/create bucket no-such-lake/);
  });
});

describe('S3Storage answers a real server cannot give here (mocked client)', () => {
  it('putIfAbsent: true when created, false on 412 PreconditionFailed (s3rver ignores If-None-Match)', async () => {
    const { mock, storage } = mocked();
    mock.on(PutObjectCommand).resolvesOnce({}).rejectsOnce(serviceError('PreconditionFailed', 412));
    expect(await storage.putIfAbsent('_delta_log/00000000000000000001.json', '{}')).toBe(true);
    expect(await storage.putIfAbsent('_delta_log/00000000000000000001.json', '{}')).toBe(false);
    const calls = mock.commandCalls(PutObjectCommand);
    expect(calls.map((c) => [c.args[0].input.Key, c.args[0].input.IfNoneMatch])).toEqual([
      ['prod/_delta_log/00000000000000000001.json', '*'],
      ['prod/_delta_log/00000000000000000001.json', '*'],
    ]);
  });

  it('putIfAbsent: retries a 409 ConditionalRequestConflict, then sees the winner (412) or wins', async () => {
    const lost = mocked();
    lost.mock.on(PutObjectCommand).rejectsOnce(serviceError('ConditionalRequestConflict', 409)).rejectsOnce(serviceError('PreconditionFailed', 412));
    expect(await lost.storage.putIfAbsent('_delta_log/00000000000000000002.json', '{}')).toBe(false);
    expect(lost.mock.commandCalls(PutObjectCommand)).toHaveLength(2);
    const won = mocked();
    won.mock.on(PutObjectCommand).rejectsOnce(serviceError('ConditionalRequestConflict', 409)).resolvesOnce({});
    expect(await won.storage.putIfAbsent('_delta_log/00000000000000000002.json', '{}')).toBe(true);
    expect(won.mock.commandCalls(PutObjectCommand)).toHaveLength(2);
  });

  it('putIfAbsent: a 412 on an SDK retry is ours when the object holds exactly our bytes (the first answer was lost)', async () => {
    const retried = (status: number, name: string) => Object.assign(serviceError(name, status), { $metadata: { httpStatusCode: status, attempts: 2 } });
    const body = (text: string) => ({ Body: { transformToByteArray: async () => new Uint8Array(Buffer.from(text)) } }) as never;
    const ours = mocked();
    ours.mock.on(PutObjectCommand).rejects(retried(412, 'PreconditionFailed'));
    ours.mock.on(GetObjectCommand).resolves(body('{"runId":"r1"}'));
    expect(await ours.storage.putIfAbsent('_delta_log/00000000000000000003.json', '{"runId":"r1"}')).toBe(true);
    const theirs = mocked();
    theirs.mock.on(PutObjectCommand).rejects(retried(412, 'PreconditionFailed'));
    theirs.mock.on(GetObjectCommand).resolves(body('{"runId":"r2"}'));
    expect(await theirs.storage.putIfAbsent('_delta_log/00000000000000000003.json', '{"runId":"r1"}')).toBe(false);
    // A first-attempt 412 is another writer's without reading anything.
    const plain = mocked();
    plain.mock.on(PutObjectCommand).rejects(serviceError('PreconditionFailed', 412));
    expect(await plain.storage.putIfAbsent('_delta_log/00000000000000000003.json', '{"runId":"r1"}')).toBe(false);
    expect(plain.mock.commandCalls(GetObjectCommand)).toHaveLength(0);
  });

  it.each([
    ['AccessDenied', 403, 'QL_S3_ACCESS_DENIED', /access denied \(AccessDenied\)/],
    ['NoSuchBucket', 404, 'QL_S3_NO_BUCKET', /bucket lake-bucket does not exist/],
    ['InvalidAccessKeyId', 403, 'QL_S3_CREDENTIALS', /credentials were refused or not found/],
    ['SignatureDoesNotMatch', 403, 'QL_S3_CREDENTIALS', /credentials were refused/],
    ['SlowDown', 503, 'QL_S3_UNAVAILABLE', /answered 503 SlowDown after every retry/],
    ['InvalidObjectState', 403, 'QL_S3_ERROR', /answered 403 InvalidObjectState/], // archived, not refused
  ])('maps %s to a code and a message naming bucket and key, never the secret', async (name, status, code, message) => {
    const { mock, storage } = mocked();
    mock.on(GetObjectCommand).rejects(serviceError(name, status));
    const error = await storage.read('kline/p.parquet').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).code).toBe(code);
    expect((error as Error).message).toMatch(/^GetObject s3:\/\/lake-bucket\/prod\/kline\/p\.parquet: /);
    expect((error as Error).message).toMatch(message);
    expect((error as EnvironmentError).target).toBe('s3://lake-bucket/prod/kline/p.parquet');
    const everything = JSON.stringify(error, Object.getOwnPropertyNames(error)) + JSON.stringify((error as Error).cause, Object.getOwnPropertyNames((error as Error).cause));
    expect(everything).not.toMatch(/mock-secret-never-shown|AKIDMOCK/);
  });

  it('aborts a multipart upload whose part failed, so no parts linger, and reports the failure', async () => {
    const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDMOCK', secretAccessKey: 'mock-secret-never-shown' } });
    const mock = mockClient(client);
    mock.on(CreateMultipartUploadCommand).resolves({ UploadId: 'upload-1' });
    mock.on(UploadPartCommand).resolvesOnce({ ETag: '"p1"' }).rejects(serviceError('AccessDenied', 403));
    mock.on(AbortMultipartUploadCommand).resolves({});
    const storage = new S3Storage(client, 's3://lake-bucket/prod', { multipartThresholdBytes: MIN_PART_BYTES, partSizeBytes: MIN_PART_BYTES, queueSize: 1 });
    const error = await storage.put('kline/big.parquet', Buffer.alloc(2 * MIN_PART_BYTES + 1)).catch((e: unknown) => e);
    expect((error as EnvironmentError).code).toBe('QL_S3_ACCESS_DENIED');
    expect((error as Error).message).toMatch(/^multipart upload of s3:\/\/lake-bucket\/prod\/kline\/big\.parquet: access denied/);
    expect(mock.commandCalls(AbortMultipartUploadCommand).map((c) => [c.args[0].input.Key, c.args[0].input.UploadId])).toEqual([['prod/kline/big.parquet', 'upload-1']]);
    expect(mock.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });

  it('reads a missing object as undefined, and fails deletePrefix when DeleteObjects reports a key it could not delete', async () => {
    const { mock, storage } = mocked();
    mock.on(GetObjectCommand).rejects(serviceError('NoSuchKey', 404));
    expect(await storage.read('kline/none.parquet')).toBeUndefined();
    mock.on(ListObjectsV2Command).resolves({ Contents: [{ Key: 'prod/trade/a' }, { Key: 'prod/trade/b' }], IsTruncated: false });
    mock.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'prod/trade/b', Code: 'AccessDenied', Message: 'Access Denied' }] });
    const error = await storage.deletePrefix('trade/').catch((e: unknown) => e);
    expect((error as EnvironmentError).code).toBe('QL_S3_ACCESS_DENIED');
    expect((error as Error).message).toMatch(/^DeleteObjects \(1 of 2 keys failed\), first s3:\/\/lake-bucket\/prod\/trade\/b: access denied/);
    expect(mock.commandCalls(DeleteObjectsCommand)[0]!.args[0].input.Delete!.Objects).toEqual([{ Key: 'prod/trade/a' }, { Key: 'prod/trade/b' }]);
  });
});

describe('retries are the SDK\'s, over real HTTP', () => {
  let http: Server;
  let requests = 0;
  let failFirst = 0;
  beforeAll(async () => {
    // Answers HeadObject: 503 SlowDown for the first `failFirst` requests, then a 42-byte object.
    http = createServer((req, res) => {
      requests++;
      if (requests <= failFirst) {
        res.writeHead(503, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
        return;
      }
      res.writeHead(200, { 'content-length': '42', etag: '"x"' });
      res.end();
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
  });
  afterAll(() => {
    http.close();
  });
  const endpoint = () => `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const credentials = { accessKeyId: 'AKIDLOOP', secretAccessKey: 'loop-secret' };

  it('retries 503 SlowDown and succeeds: three requests for one HeadObject', async () => {
    requests = 0;
    failFirst = 2;
    const s = new S3Storage(s3ClientFor({ endpoint: endpoint(), credentials }), 's3://lake-bucket');
    expect(await s.size('kline/p.parquet')).toBe(42);
    expect(requests).toBe(3);
  });

  it('gives up after maxAttempts with QL_S3_UNAVAILABLE, retryable', async () => {
    requests = 0;
    failFirst = 1000;
    const s = new S3Storage(s3ClientFor({ endpoint: endpoint(), credentials, maxAttempts: 2 }), 's3://lake-bucket');
    const error = await s.size('kline/p.parquet').catch((e: unknown) => e);
    expect((error as EnvironmentError).code).toBe('QL_S3_UNAVAILABLE');
    expect((error as EnvironmentError).retryable).toBe(true);
    expect(requests).toBe(2);
  });

  it('maps a refused connection to QL_S3_TRANSPORT, retryable', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const s = new S3Storage(s3ClientFor({ endpoint: `http://127.0.0.1:${port}`, credentials, maxAttempts: 1 }), 's3://lake-bucket');
    const error = await s.read('kline/p.parquet').catch((e: unknown) => e);
    expect((error as EnvironmentError).code).toBe('QL_S3_TRANSPORT');
    expect((error as EnvironmentError).retryable).toBe(true);
    expect((error as Error).message).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });
});
