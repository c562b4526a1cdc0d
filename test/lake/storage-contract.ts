/**
 * What every LakeStorage backend promises (src/lake/storage/lake-storage.ts), as one suite run
 * against each backend, so the sinks can rely on the interface and not on the backend under it.
 */
import { describe, expect, it } from 'vitest';
import { PathOutsideRootError } from '../../src/core/errors.js';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';

export interface ContractBackend {
  readonly storage: LakeStorage;
  /** False for a store that ignores If-None-Match (s3rver): putIfAbsent is then tested on a mock. */
  readonly conditionalCreate: boolean;
}

const text = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : Buffer.from(b).toString('utf8'));

/** Many keys, written a few dozen at a time (enough to pass one list page of 1000). */
async function putMany(storage: LakeStorage, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => storage.put(k, k)));
}

export function storageContract(name: string, backend: () => ContractBackend): void {
  describe(`LakeStorage contract: ${name}`, () => {
    it('puts and publishes objects read back whole, by size and existence; a missing one is undefined', async () => {
      const s = backend().storage;
      await s.put('_quotelake/staging/r1/kline-parquet/part-1.parquet', 'staged bytes');
      await s.publish('_quotelake/manifests/kline.parquet.json', '{"version":2}');
      await s.publish('_quotelake/manifests/kline.parquet.json', '{"version":2,"files":[]}'); // replaced whole
      const binary = Uint8Array.from({ length: 256 }, (_, i) => i);
      await s.put('trade/date=2026-11-21/part-1.bin', binary);
      expect(text(await s.read('_quotelake/staging/r1/kline-parquet/part-1.parquet'))).toBe('staged bytes');
      expect(text(await s.read('_quotelake/manifests/kline.parquet.json'))).toBe('{"version":2,"files":[]}');
      expect(Buffer.from((await s.read('trade/date=2026-11-21/part-1.bin'))!).equals(Buffer.from(binary))).toBe(true);
      expect(await s.size('_quotelake/manifests/kline.parquet.json')).toBe(24);
      expect(await s.size('trade/date=2026-11-21/part-1.bin')).toBe(256);
      expect(await s.exists('trade/date=2026-11-21/part-1.bin')).toBe(true);
      expect(await s.read('trade/date=2026-11-21/none.bin')).toBeUndefined();
      expect(await s.size('trade/date=2026-11-21/none.bin')).toBeUndefined();
      expect(await s.exists('trade/none/none.bin')).toBe(false);
      expect(s.root.length).toBeGreaterThan(0);
    });

    it('says when an object was last written (to the second, as S3 does), undefined when there is none', async () => {
      const s = backend().storage;
      // The backend's own clock stamps the object: bounded by this process's clock around the write
      // (S3's LastModified drops the milliseconds, hence the second below). A file system stamps with
      // the kernel's coarse clock, which trails the precise one by up to a tick (one failed with a
      // stamp 2 ms before the instant taken ahead of the write), hence the 20 ms of slack.
      const before = Math.floor((Date.now() - 20) / 1000) * 1000;
      await s.put('halt/exchange=SSE/p.parquet', 'x');
      const after = Date.now();
      const at = await s.modifiedAt!('halt/exchange=SSE/p.parquet');
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
      expect(await s.modifiedAt!('halt/exchange=SSE/none.parquet')).toBeUndefined();
    });

    it('reads a range, fewer bytes at the end of the object and none past it', async () => {
      const s = backend().storage;
      await s.put('kline/interval=1m/part-1.parquet', '0123456789PAR1');
      expect(text(await s.readRange('kline/interval=1m/part-1.parquet', 2, 3))).toBe('234');
      expect(text(await s.readRange('kline/interval=1m/part-1.parquet', 10, 100))).toBe('PAR1');
      expect(text(await s.readRange('kline/interval=1m/part-1.parquet', 0, 14))).toBe('0123456789PAR1');
      expect((await s.readRange('kline/interval=1m/part-1.parquet', 14, 8)).byteLength).toBe(0);
      expect((await s.readRange('kline/interval=1m/part-1.parquet', 3, 0)).byteLength).toBe(0);
    });

    it('lists every key under a prefix past one page of 1000, and deletes a prefix past one batch of 1000', async () => {
      const s = backend().storage;
      const many = Array.from({ length: 1005 }, (_, i) => `trade/date=2026-11-21/code=${String(i).padStart(4, '0')}.SH/p.ndjson`);
      await putMany(s, many);
      // A sibling whose name starts like the prefix. Not 'trade-other': s3rver walks folders, so a
      // sibling sorting before '/' breaks its page order (S3 itself lists in binary key order).
      await s.put('trades/p.ndjson', 'a sibling whose name starts like the prefix');
      await s.put('kline/p.parquet', 'x');
      expect((await s.list('trade/')).sort()).toEqual([...many].sort());
      expect((await s.list('trade/date=2026-11-21/code=0007.SH/'))).toEqual(['trade/date=2026-11-21/code=0007.SH/p.ndjson']);
      expect(await s.list('nothing/')).toEqual([]);
      expect((await s.list('')).length).toBe(1007);
      await s.deletePrefix('trade/');
      expect(await s.list('trade/')).toEqual([]);
      expect((await s.list('')).sort()).toEqual(['kline/p.parquet', 'trades/p.ndjson']);
    });

    it('lists in key order after a key and up to a limit, past one page of 1000 (a Delta log\'s tail)', async () => {
      const s = backend().storage;
      const log = Array.from({ length: 1203 }, (_, i) => `kline/_delta_log/${String(i).padStart(20, '0')}.json`);
      await putMany(s, [...log, 'kline/_delta_log/00000000000000000010.checkpoint.parquet', 'kline/_delta_log/_last_checkpoint']);
      const after = (v: number) => ({ startAfter: `kline/_delta_log/${String(v).padStart(20, '0')}` });
      expect(await s.list('kline/_delta_log/', after(1200))).toEqual([...log.slice(1200), 'kline/_delta_log/_last_checkpoint']);
      expect(await s.list('kline/_delta_log/', after(10))).toEqual(['kline/_delta_log/00000000000000000010.checkpoint.parquet', ...log.slice(10), 'kline/_delta_log/_last_checkpoint']);
      expect(await s.list('kline/_delta_log/', { ...after(5), limit: 2 })).toEqual(log.slice(5, 7));
      expect(await s.list('kline/_delta_log/', { limit: 1 })).toEqual([log[0]]);
      expect(await s.list('nothing/', { limit: 1 })).toEqual([]);
    });

    it('deletes one object, and a missing one without error', async () => {
      const s = backend().storage;
      await s.put('halt/exchange=SSE/p.parquet', 'x');
      await s.delete('halt/exchange=SSE/p.parquet');
      await s.delete('halt/exchange=SSE/p.parquet');
      await s.delete('never/written');
      await s.deletePrefix('never/');
      expect(await s.exists('halt/exchange=SSE/p.parquet')).toBe(false);
      expect(await s.list('')).toEqual([]);
    });

    it('commits a staged object to its final key: the target whole, the source gone (keys with % and =)', async () => {
      const s = backend().storage;
      const staged = '_quotelake/staging/r1/trade-parquet/code=A%2FB%25C/part-r1-00001.parquet';
      const final = 'trade/date=2026-11-21/code=A%2FB%25C/part-r1-00001.parquet';
      const body = Buffer.from('PAR1 committed body PAR1');
      await s.put(staged, body);
      await s.commit(staged, final);
      expect(Buffer.from((await s.read(final))!).equals(body)).toBe(true);
      expect(await s.exists(staged)).toBe(false);
      expect(await s.list('_quotelake/')).toEqual([]);
      expect(await s.list('trade/')).toEqual([final]);
    });

    it('creates a key only if absent', async (ctx) => {
      const b = backend();
      if (!b.conditionalCreate) ctx.skip(); // this store ignores If-None-Match: see the mocked cases
      expect(await b.storage.putIfAbsent('_quotelake/delta/lock', 'first')).toBe(true);
      expect(await b.storage.putIfAbsent('_quotelake/delta/lock', 'second')).toBe(false);
      expect(text(await b.storage.read('_quotelake/delta/lock'))).toBe('first');
    });

    it('refuses a key that is empty, absolute, leads out, or has a backslash, before touching anything', async () => {
      const s = backend().storage;
      for (const bad of ['', '/etc/passwd', '../outside', 'kline/../../outside', 'kline\\part.parquet', 'a\0b']) {
        await expect(s.put(bad, 'x'), bad).rejects.toBeInstanceOf(PathOutsideRootError);
        await expect(s.read(bad), bad).rejects.toBeInstanceOf(PathOutsideRootError);
      }
      await expect(s.deletePrefix('')).rejects.toBeInstanceOf(PathOutsideRootError);
      expect(await s.list('')).toEqual([]);
    });
  });
}
