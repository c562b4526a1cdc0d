/**
 * An S3 bucket (or an S3-compatible store) as a LakeStorage. Keys are lake keys under the location's
 * prefix, checked by objectKey before any request. Every write is one object made visible whole:
 * a PUT, or above the multipart threshold a multipart upload, which S3 shows only once it completes.
 *
 * `commit(from, to)` is a server-side CopyObject then a DeleteObject of `from`: the target appears
 * whole (a copy is atomic per object), but a process killed between the two leaves the staged object
 * behind; it lives under `_quotelake/staging/`, never under a dataset prefix, and the sweep of staging
 * removes it. CopyObject copies at most 5 GiB, far above any file a sink writes.
 */
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { EnvironmentError, PathOutsideRootError } from '../../core/errors.js';
import type { ConditionalWrites, VersionedObject } from './conditional-writes.js';
import type { LakeStorage, ListOptions } from './lake-storage.js';
import { isNotFound, s3Error, s3ErrorName, s3Status } from './s3-error.js';
import { copySource, objectKey, objectPrefix, parseS3Url, s3Root, type S3Location } from './s3-location.js';

export interface S3StorageOptions {
  /** Bodies larger than this go up as a multipart upload; default 16 MiB. */
  readonly multipartThresholdBytes?: number;
  /** Size of each part (S3's minimum is 5 MiB); default 8 MiB. */
  readonly partSizeBytes?: number;
  /** Parts in flight at once; memory of a streamed upload stays near partSize × queueSize. Default 4. */
  readonly queueSize?: number;
  /** The client's custom endpoint, named in the error when the store cannot be reached. */
  readonly endpoint?: string | undefined;
}

const MiB = 1024 * 1024;
/** S3's smallest part (every part but the last); lib-storage refuses less. */
export const MIN_PART_BYTES = 5 * MiB;
/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;
/** A conditional PUT that raced another on the same key answers 409: AWS says retry it. */
const CONFLICT_ATTEMPTS = 5;

const bytes = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class S3Storage implements LakeStorage, ConditionalWrites {
  readonly root: string;
  readonly location: S3Location;
  private readonly threshold: number;
  private readonly partSize: number;
  private readonly queueSize: number;
  readonly endpoint: string | undefined;

  constructor(
    private readonly client: S3Client,
    location: S3Location | string,
    options: S3StorageOptions = {},
  ) {
    this.location = typeof location === 'string' ? parseS3Url(location) : location;
    this.root = s3Root(this.location);
    this.partSize = Math.max(MIN_PART_BYTES, options.partSizeBytes ?? 8 * MiB);
    this.threshold = Math.max(this.partSize, options.multipartThresholdBytes ?? 16 * MiB);
    this.queueSize = Math.max(1, options.queueSize ?? 4);
    this.endpoint = options.endpoint;
  }

  private get bucket(): string {
    return this.location.bucket;
  }

  private fail(error: unknown, op: string, key: string | undefined, stage: 'read' | 'write' | 'commit'): EnvironmentError {
    return s3Error(error, { op, bucket: this.bucket, ...(key === undefined ? {} : { key }), prefix: this.location.prefix, ...(this.endpoint === undefined ? {} : { endpoint: this.endpoint }), stage });
  }

  async put(key: string, data: Uint8Array | string): Promise<void> {
    await this.write(objectKey(this.location, key), bytes(data));
  }

  /** The same as put: on S3 every completed PUT or multipart upload is visible whole or not at all. */
  async publish(key: string, data: Uint8Array | string): Promise<void> {
    await this.write(objectKey(this.location, key), bytes(data));
  }

  /**
   * Upload a body that is not in memory (a file written by an encode worker, a stream) as one object,
   * always multipart above one part: memory stays near partSize × queueSize whatever its length.
   */
  async putStream(key: string, body: Readable | AsyncIterable<Uint8Array>): Promise<void> {
    const Key = objectKey(this.location, key);
    const stream = body instanceof Readable ? body : Readable.from(body);
    await this.upload(Key, stream);
  }

  private async write(Key: string, body: Uint8Array): Promise<void> {
    if (body.byteLength > this.threshold) return this.upload(Key, body);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.byteLength }));
    } catch (error) {
      throw this.fail(error, 'PutObject', Key, 'write');
    }
  }

  private async upload(Key: string, Body: Uint8Array | Readable): Promise<void> {
    // leavePartsOnError false: a failed upload is aborted, so its parts neither linger nor cost.
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key, Body }, partSize: this.partSize, queueSize: this.queueSize, leavePartsOnError: false });
    try {
      await upload.done();
    } catch (error) {
      throw this.fail(error, 'multipart upload of', Key, 'write');
    }
  }

  async putIfAbsent(key: string, data: Uint8Array | string): Promise<boolean> {
    const Key = objectKey(this.location, key);
    const body = bytes(data);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.byteLength, IfNoneMatch: '*' }));
        return true;
      } catch (error) {
        if (s3Status(error) === 412 || s3ErrorName(error) === 'PreconditionFailed') return this.ownedAfterRetry(error, Key, body);
        // 409 ConditionalRequestConflict: another conditional write on this key was in flight. The
        // S3 documentation says to retry; the retry then sees the winner's object and answers 412.
        const conflict = s3Status(error) === 409 || s3ErrorName(error) === 'ConditionalRequestConflict';
        if (!conflict || attempt >= CONFLICT_ATTEMPTS) throw this.fail(error, 'conditional PutObject', Key, 'commit');
        await pause(50 * 2 ** attempt);
      }
    }
  }

  /**
   * A 412 normally means another writer created the key first. But when the SDK retried the PUT
   * (a lost answer, a reset connection), the earlier attempt may have created it: then the object
   * holds exactly our bytes and the create was ours. Commit markers and locks carry a run id, so two
   * writers never send identical bytes.
   */
  private async ownedAfterRetry(error: unknown, Key: string, body: Uint8Array): Promise<boolean> {
    const attempts = (error as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1;
    if (attempts <= 1) return false;
    let existing: Uint8Array | undefined;
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      existing = await answer.Body?.transformToByteArray();
    } catch (readError) {
      if (isNotFound(readError)) return false;
      throw this.fail(readError, 'GetObject (after a retried conditional PutObject)', Key, 'commit');
    }
    return existing !== undefined && Buffer.from(existing).equals(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  }

  /** The object with its ETag: the version a conditional replace or delete names (the lake lease). */
  async readVersioned(key: string): Promise<VersionedObject | undefined> {
    const Key = objectKey(this.location, key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      const data = answer.Body === undefined ? new Uint8Array(0) : await answer.Body.transformToByteArray();
      return { data, version: answer.ETag ?? '' };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw this.fail(error, 'GetObject', Key, 'read');
    }
  }

  /**
   * PutObject with If-Match: S3 answers 412 when the object changed since `version` and 404 when it
   * is gone; both mean another writer came first. 409 (a conditional write in flight on the key) is
   * retried as for putIfAbsent. A retry of the SDK after a lost answer may be refused by our own
   * earlier write: the caller re-reads and compares the bytes (the lease does).
   */
  async replaceIf(key: string, data: Uint8Array | string, version: string): Promise<string | undefined> {
    const Key = objectKey(this.location, key);
    const body = bytes(data);
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.byteLength, IfMatch: version }));
        return answer.ETag ?? '';
      } catch (error) {
        if (s3Status(error) === 412 || s3ErrorName(error) === 'PreconditionFailed' || isNotFound(error)) return undefined;
        const conflict = s3Status(error) === 409 || s3ErrorName(error) === 'ConditionalRequestConflict';
        if (!conflict || attempt >= CONFLICT_ATTEMPTS) throw this.fail(error, 'conditional PutObject (If-Match)', Key, 'commit');
        await pause(50 * 2 ** attempt);
      }
    }
  }

  /** DeleteObject with If-Match (general purpose buckets take it): false when the object changed. */
  async deleteIf(key: string, version: string): Promise<boolean> {
    const Key = objectKey(this.location, key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key, IfMatch: version }));
      return true;
    } catch (error) {
      if (s3Status(error) === 412 || s3ErrorName(error) === 'PreconditionFailed' || isNotFound(error)) return false;
      throw this.fail(error, 'conditional DeleteObject (If-Match)', Key, 'write');
    }
  }

  async commit(from: string, to: string): Promise<void> {
    const source = objectKey(this.location, from);
    const target = objectKey(this.location, to);
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: target, CopySource: copySource(this.bucket, source) }));
    } catch (error) {
      throw this.fail(error, `CopyObject from ${source} to`, target, 'commit');
    }
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: source }));
    } catch (error) {
      throw this.fail(error, 'DeleteObject (after its copy was committed)', source, 'commit');
    }
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    const Key = objectKey(this.location, key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      return answer.Body === undefined ? new Uint8Array(0) : await answer.Body.transformToByteArray();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw this.fail(error, 'GetObject', Key, 'read');
    }
  }

  async readRange(key: string, offset: number, length: number): Promise<Uint8Array> {
    const Key = objectKey(this.location, key);
    if (length <= 0) return new Uint8Array(0);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key, Range: `bytes=${offset}-${offset + length - 1}` }));
      const body = answer.Body === undefined ? new Uint8Array(0) : await answer.Body.transformToByteArray();
      // A store that ignores Range sends the whole object (status 200): cut it here.
      return answer.ContentRange === undefined && body.byteLength > length ? body.subarray(offset, offset + length) : body;
    } catch (error) {
      // 416: the range starts at or past the end; the local backend reads 0 bytes there too.
      if (s3Status(error) === 416 || s3ErrorName(error) === 'InvalidRange') return new Uint8Array(0);
      throw this.fail(error, 'GetObject (range)', Key, 'read');
    }
  }

  async size(key: string): Promise<number | undefined> {
    const Key = objectKey(this.location, key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw this.fail(error, 'HeadObject', Key, 'read');
    }
  }

  async modifiedAt(key: string): Promise<number | undefined> {
    const Key = objectKey(this.location, key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return head.LastModified?.getTime();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw this.fail(error, 'HeadObject', Key, 'read');
    }
  }

  async enclosingLake(marker: string): Promise<{ root: string; top: string } | undefined> {
    // true, false, or undefined when the store would not say: credentials scoped to this lake's
    // prefix may not read a parent's, and this prefix's own refusal is said better by the commands'
    // probe of it (which names the output and the permissions it needs). Unknown is not refused.
    const has = async (prefix: string): Promise<boolean | undefined> => {
      const Key = objectKey({ bucket: this.bucket, prefix }, marker);
      try {
        await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
        return true;
      } catch (error) {
        return isNotFound(error) ? false : undefined;
      }
    };
    if ((await has(this.location.prefix)) !== false) return undefined;
    const segments = this.location.prefix.split('/').filter((s) => s !== '');
    for (let n = segments.length - 1; n >= 0; n--) {
      const prefix = segments
        .slice(0, n)
        .map((s) => `${s}/`)
        .join('');
      const found = await has(prefix);
      if (found === undefined) return undefined;
      if (found) return { root: s3Root({ bucket: this.bucket, prefix }), top: segments[n]! };
    }
    return undefined;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  /** Every key under the prefix, page after page (ListObjectsV2 answers at most 1000 keys a page). */
  async list(prefix: string, options?: ListOptions): Promise<string[]> {
    const Prefix = objectPrefix(this.location, prefix);
    const keys: string[] = [];
    // S3 lists in key (byte) order, so StartAfter and MaxKeys are the options as they are.
    const StartAfter = options?.startAfter === undefined ? undefined : objectKey(this.location, options.startAfter);
    const limit = options?.limit;
    let ContinuationToken: string | undefined;
    for (;;) {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix,
            ...(ContinuationToken === undefined ? {} : { ContinuationToken }),
            ...(StartAfter === undefined ? {} : { StartAfter }),
            ...(limit === undefined ? {} : { MaxKeys: Math.min(1000, limit - keys.length) }),
          }),
        );
      } catch (error) {
        throw this.fail(error, 'ListObjectsV2', Prefix, 'read');
      }
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) keys.push(object.Key.slice(this.location.prefix.length));
      }
      if (limit !== undefined && keys.length >= limit) return keys.slice(0, limit);
      if (page.IsTruncated !== true) return keys;
      // A truncated page without a token would list the first page forever.
      if (page.NextContinuationToken === undefined || page.NextContinuationToken === ContinuationToken) {
        throw this.fail(Object.assign(new Error('a truncated listing came without a new continuation token'), { name: 'ListingStuck' }), 'ListObjectsV2', Prefix, 'read');
      }
      ContinuationToken = page.NextContinuationToken;
    }
  }

  /** DeleteObject answers 204 whether or not the key existed: a missing object is fine. */
  async delete(key: string): Promise<void> {
    const Key = objectKey(this.location, key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (error) {
      throw this.fail(error, 'DeleteObject', Key, 'write');
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    // As the local backend: '' names the root itself, and nothing empties a whole lake by accident.
    if (prefix === '') throw new PathOutsideRootError('lake prefix', prefix, this.root, 'is empty');
    const Prefix = objectPrefix(this.location, prefix);
    const keys = (await this.list(prefix)).map((k) => this.location.prefix + k);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      let answer;
      try {
        answer = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      } catch (error) {
        throw this.fail(error, 'DeleteObjects', Prefix, 'write');
      }
      // DeleteObjects answers 200 even when some keys failed: each failure is in Errors.
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0]!;
        const cause = Object.assign(new Error(first.Message ?? first.Code ?? 'delete failed'), { name: first.Code ?? 'Error', $metadata: { httpStatusCode: first.Code === 'AccessDenied' ? 403 : undefined } });
        throw this.fail(cause, `DeleteObjects (${failed.length} of ${batch.length} keys failed), first`, first.Key ?? Prefix, 'write');
      }
    }
  }

  /** An object store has no local path: a writer that needs a file stages locally and uploads it. */
  localPath(): undefined {
    return undefined;
  }
}
