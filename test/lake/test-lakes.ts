/**
 * The lake backends a sink test runs against: a local folder, and an S3 prefix on s3rver. A test
 * names each lake by the string `fresh()` gives (a folder, or `s3://lake-test/<unique>`) and reads
 * it through these helpers, so one body checks both backends (a `describe.each` over BACKENDS).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { beforeAll } from 'vitest';
import { scratchFolderName } from '../../src/lake/commit/local-scratch.js';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { objectKey, parseS3Url } from '../../src/lake/storage/s3-location.js';
import { useS3Server } from '../helpers/s3-server.js';
import { tempDir } from '../sinks/helpers.js';

export type Backend = 'local' | 's3';
export const BACKENDS: readonly Backend[] = ['local', 's3'];

export interface TestLakes {
  /** A new empty lake: a temp folder, or a fresh prefix of the test bucket. */
  fresh(): Promise<string>;
  /** The storage a sink is given for the lake (undefined: the sink's default, the local folder). */
  storage(out: string): LakeStorage | undefined;
  /** Every object key in the lake (or under `sub/`, relative to it), sorted. */
  keys(out: string, sub?: string): Promise<string[]>;
  /** The first path segments that hold anything (`readdir` of the root). */
  top(out: string): Promise<string[]>;
  read(out: string, key: string): Promise<Uint8Array>;
  write(out: string, key: string, data: string): Promise<void>;
  /** A local folder with the lake's objects, for DuckDB: the folder itself, or a download of the prefix. */
  localCopy(out: string): Promise<string>;
  /** The S3 endpoint of the s3 backend's server, for a child process; undefined on the local backend. */
  s3Endpoint(): string | undefined;
  /** Make the object at `key` look written at `atMs` (a file's mtime; an S3 object's LastModified), as a log written over days has it. */
  setModifiedAt(out: string, key: string, atMs: number): Promise<void>;
  /** Spill files of a run (local: under the lake's staging; S3: in the run's local scratch folder). */
  spills(out: string, runToken: string): Promise<string[]>;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1).split('\\').join('/'));
}

/** Call inside a describe: an s3 backend starts s3rver for it. */
export function useTestLakes(backend: Backend): TestLakes {
  const server = backend === 's3' ? useS3Server() : undefined;
  let client: S3Client | undefined;
  const stores = new Map<string, LakeStorage>();
  const storeOf = (out: string): LakeStorage => {
    if (backend === 'local') return localStorage(out);
    let s = stores.get(out);
    if (s === undefined) {
      client ??= server!().client();
      s = new S3Storage(client, out);
      stores.set(out, s);
    }
    return s;
  };
  return {
    async fresh() {
      return backend === 'local' ? tempDir() : `s3://lake-test/t-${randomBytes(6).toString('hex')}`;
    },
    storage: (out) => (backend === 'local' ? undefined : storeOf(out)),
    async keys(out, sub) {
      const prefix = sub === undefined || sub === '' ? '' : `${sub}/`;
      const all = backend === 'local' ? (await filesUnder(out)).filter((k) => k.startsWith(prefix)) : await storeOf(out).list(prefix);
      return all.map((k) => k.slice(prefix.length)).sort();
    },
    async top(out) {
      if (backend === 'local') return (await readdir(out)).sort();
      return [...new Set((await storeOf(out).list('')).map((k) => k.split('/')[0]!))].sort();
    },
    async read(out, key) {
      const bytes = await storeOf(out).read(key);
      if (bytes === undefined) throw new Error(`${out}: no ${key}`);
      return bytes;
    },
    async write(out, key, data) {
      await storeOf(out).put(key, data);
    },
    async localCopy(out) {
      if (backend === 'local') return out;
      const dir = await tempDir('ql-s3-copy-');
      const storage = storeOf(out);
      for (const key of await storage.list('')) {
        const path = join(dir, key);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, (await storage.read(key))!);
      }
      return dir;
    },
    s3Endpoint: () => server?.().endpoint,
    async setModifiedAt(out, key, atMs) {
      const at = new Date(atMs);
      if (backend === 'local') await utimes(join(out, key), at, at);
      else await server!().setModifiedAt(objectKey(parseS3Url(out), key), at);
    },
    async spills(out, runToken) {
      const files = backend === 'local' ? (await filesUnder(join(out, '_quotelake'))) : await filesUnder(join(tmpdir(), scratchFolderName(storeOf(out), runToken)));
      return files.filter((f) => f.endsWith('.arrows'));
    },
  };
}

export async function readText(lakes: TestLakes, out: string, key: string): Promise<string> {
  return Buffer.from(await lakes.read(out, key)).toString('utf8');
}

/**
 * useTestLakes for a describe block of `backend`, handed to `take` before its first test: a file's
 * blocks run one after another, so one variable can hold the lakes of the block running now.
 */
export function useLakesOf(backend: Backend, take: (lakes: TestLakes) => void): void {
  const mine = useTestLakes(backend);
  beforeAll(() => take(mine));
}
