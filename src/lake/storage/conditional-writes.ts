/**
 * Compare-and-swap on one object, for a lease that more than one host may try to renew or take
 * over: read an object with its version, and replace or delete it only while it is still at that
 * version. On S3 the version is the ETag and the condition is `If-Match` (PutObject and DeleteObject
 * take it on general purpose buckets); S3Storage implements this itself.
 *
 * Any other LakeStorage gets `conditionalWritesOver`: the version is a hash of the bytes, and a
 * replacer of version V first creates the claim `<key>.cas-<V>` with putIfAbsent, so among writers
 * that all saw V exactly one replaces it. It serves a lake on a local disk and the tests; a process
 * killed while holding a claim leaves V unreplaceable until the claim is deleted by hand, which is
 * why the CLI never uses it for a lease (a local output has its pid lock, src/runtime/output-lock.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LakeStorage } from './lake-storage.js';

export interface VersionedObject {
  readonly data: Uint8Array;
  /** Opaque: what replaceIf and deleteIf compare against (an ETag, a hash). */
  readonly version: string;
}

export interface ConditionalWrites {
  readVersioned(key: string): Promise<VersionedObject | undefined>;
  /** Replace only while the object is at `version`: its new version, or undefined when refused (changed or gone). */
  replaceIf(key: string, data: Uint8Array | string, version: string): Promise<string | undefined>;
  /** Delete only while the object is at `version`: false when refused. */
  deleteIf(key: string, version: string): Promise<boolean>;
}

export function hasConditionalWrites(storage: LakeStorage): storage is LakeStorage & ConditionalWrites {
  const s = storage as Partial<ConditionalWrites>;
  return typeof s.readVersioned === 'function' && typeof s.replaceIf === 'function' && typeof s.deleteIf === 'function';
}

const bytes = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
const hashOf = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The storage's own conditional writes (S3), else the claim-based form over putIfAbsent. */
export function conditionalWritesOf(storage: LakeStorage): ConditionalWrites {
  return hasConditionalWrites(storage) ? storage : conditionalWritesOver(storage);
}

export function conditionalWritesOver(storage: LakeStorage): ConditionalWrites {
  /** Runs `act` while holding the one claim on `key` at `version`; undefined when another holds it. */
  async function claimed<T>(key: string, version: string, act: () => Promise<T>): Promise<T | undefined> {
    const claim = `${key}.cas-${version.slice(0, 32)}`;
    if (!(await storage.putIfAbsent(claim, randomBytes(8).toString('hex')))) return undefined;
    try {
      return await act();
    } finally {
      await storage.delete(claim);
    }
  }
  const readVersioned = async (key: string): Promise<VersionedObject | undefined> => {
    const data = await storage.read(key);
    return data === undefined ? undefined : { data, version: hashOf(data) };
  };
  return {
    readVersioned,
    async replaceIf(key, data, version) {
      const body = bytes(data);
      const done = await claimed(key, version, async () => {
        if ((await readVersioned(key))?.version !== version) return undefined;
        await storage.publish(key, body);
        return hashOf(body);
      });
      return done ?? undefined;
    },
    async deleteIf(key, version) {
      const done = await claimed(key, version, async () => {
        if ((await readVersioned(key))?.version !== version) return false;
        await storage.delete(key);
        return true;
      });
      return done === true;
    },
  };
}
