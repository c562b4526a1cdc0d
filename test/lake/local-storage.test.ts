/** The local backend of LakeStorage: keys with `/`, no folder operations for callers, conditional create. */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { tempDir } from '../sinks/helpers.js';

const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('utf8'));

describe('localStorage', () => {
  it('puts, commits by rename, reads whole or a range, lists and deletes by key', async () => {
    const root = await tempDir('ql-storage-');
    const s = localStorage(root);
    await s.put('_quotelake/staging/r1/kline-parquet/date=2026-11-21/part-1.parquet', 'staged bytes');
    expect(await s.exists('kline/date=2026-11-21/part-1.parquet')).toBe(false);
    await s.commit('_quotelake/staging/r1/kline-parquet/date=2026-11-21/part-1.parquet', 'kline/date=2026-11-21/part-1.parquet');
    expect(text(await s.read('kline/date=2026-11-21/part-1.parquet'))).toBe('staged bytes');
    expect(text(await s.readRange('kline/date=2026-11-21/part-1.parquet', 7, 100))).toBe('bytes');
    expect(await s.size('kline/date=2026-11-21/part-1.parquet')).toBe(12);
    expect(await s.read('kline/nope')).toBeUndefined();
    expect(await s.list('kline/')).toEqual(['kline/date=2026-11-21/part-1.parquet']);
    expect(await s.list('_quotelake/')).toEqual([]);
    await s.publish('_quotelake/manifests/kline.parquet.json', '{}');
    expect((await s.list('')).sort()).toEqual(['_quotelake/manifests/kline.parquet.json', 'kline/date=2026-11-21/part-1.parquet']);
    // Deleting the last object of a folder leaves no empty folder behind (an object store has none).
    await s.delete('kline/date=2026-11-21/part-1.parquet');
    await s.deletePrefix('_quotelake/');
    expect(await readdir(root)).toEqual([]);
  });

  it('creates a key only if absent, and keeps every key inside the root', async () => {
    const root = await tempDir('ql-storage-');
    const s = localStorage(root);
    expect(await s.putIfAbsent('_quotelake/marker', 'first')).toBe(true);
    expect(await s.putIfAbsent('_quotelake/marker', 'second')).toBe(false);
    expect(text(await s.read('_quotelake/marker'))).toBe('first');
    expect(await readdir(`${root}/_quotelake`)).toEqual(['marker']);
    await expect(s.put('../outside', 'x')).rejects.toThrow();
  });
});
