/**
 * An S3-compatible server for tests: s3rver on 127.0.0.1, a free port, a fresh temp folder, silent,
 * with one bucket made. It answers the SDK as AWS would for what the lake uses, except conditional
 * writes: it ignores If-None-Match, so those are tested against a mocked client. Its PUT is made
 * whole-or-nothing, as S3's is (s3-server-main.mjs says why): the crash tests kill clients mid-PUT.
 *
 * It runs in a child Node with --openssl-legacy-provider: its ListObjectsV2 continuation token is
 * DES-encrypted, and Node 20's OpenSSL offers DES only through that provider (without it, any
 * listing longer than one page of 1000 keys fails with InternalError).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { s3ClientFor } from '../../src/lake/storage/s3-client.js';

const MAIN = fileURLToPath(new URL('./s3-server-main.mjs', import.meta.url));

export interface S3TestServer {
  readonly endpoint: string;
  readonly bucket: string;
  /** A client that talks to this server (path style, its fixed credentials). */
  client(options?: { maxAttempts?: number }): S3Client;
  /** Set an object's LastModified (s3rver answers its file's mtime), as if it had been written at `at`. */
  setModifiedAt(objectKey: string, at: Date): Promise<void>;
  stop(): Promise<void>;
}

async function portOf(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`s3rver exited (${String(code)}) before listening`);
  });
  const first = (async () => {
    for await (const line of lines) return (JSON.parse(line) as { port: number }).port;
    throw new Error('s3rver closed its output before listening');
  })();
  return Promise.race([first, exited]);
}

export async function startS3Server(bucket = 'lake-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'ql-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', MAIN, directory, bucket], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await portOf(child);
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  return {
    endpoint,
    bucket,
    client(options = {}) {
      const c = s3ClientFor({ endpoint, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, ...options });
      clients.push(c);
      return c;
    },
    async setModifiedAt(objectKey, at) {
      // s3rver's own layout: <folder>/<bucket>/<key's folders>/<key's name>._S3rver_object
      const parts = objectKey.split('/');
      await utimes(join(directory, bucket, ...parts.slice(0, -1), `${parts.at(-1)!}._S3rver_object`), at, at);
    },
    async stop() {
      for (const c of clients) c.destroy();
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** One server for the enclosing suite (started before its first test, stopped after its last). */
export function useS3Server(): () => S3TestServer {
  let server: S3TestServer | undefined;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => server!;
}
