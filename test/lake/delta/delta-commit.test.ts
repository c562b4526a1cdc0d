/** Concurrent writers on a real conditional create (LocalStorage links): retries, and a logical conflict. */
import { describe, expect, it } from 'vitest';
import { DeltaConflictError, DeltaLogError } from '../../../src/core/errors.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import type { LakeStorage } from '../../../src/lake/storage/lake-storage.js';
import { addAction, commitDeltaVersion, datasetMetaData, readDeltaSnapshot, removeAction, watermarkTxn } from '../../../src/lake/delta/index.js';
import { tempDir } from '../../sinks/helpers.js';
import { T0, TABLE_ID } from './delta-fixture-table.js';
import { replayJsonLog } from './protocol-replay.js';
import { join } from 'node:path';
import { shellWord } from '../../../src/core/shell-word.js';
import { S3Storage } from '../../../src/lake/storage/s3-storage.js';
import { fakeConditionalS3 } from '../../runtime/fake-conditional-s3.js';

const now = () => T0;
const metaData = datasetMetaData('trade', { id: TABLE_ID, createdTime: T0 });
const file = (name: string) => addAction('trade', { relativeKey: `date=2026-11-21/${name}`, size: 100, modificationTime: T0 });
const write = (storage: LakeStorage, expectedVersion: number, name: string) =>
  commitDeltaVersion(storage, 'trade', { add: [file(name)] }, { expectedVersion, operation: 'WRITE', metaData, now });

async function newTable(): Promise<{ root: string; storage: LakeStorage }> {
  const root = await tempDir('ql-delta-commit-');
  return { root, storage: localStorage(root) };
}

describe('commitDeltaVersion', () => {
  it('two writers racing for the same version both land, on distinct versions', async () => {
    const { root, storage } = await newTable();
    await write(storage, 0, 'part-r0.parquet');
    // Both planned on version 0, so both try version 1; the store lets exactly one create it.
    const [a, b] = await Promise.all([write(storage, 1, 'part-a.parquet'), write(storage, 1, 'part-b.parquet')]);
    expect([a.version, b.version].sort()).toEqual([1, 2]);
    expect([a.attempts, b.attempts].sort()).toEqual([1, 2]);
    const replayed = await replayJsonLog(join(root, 'trade'));
    expect(replayed.version).toBe(2);
    expect([...replayed.live.keys()].sort()).toEqual(['date=2026-11-21/part-a.parquet', 'date=2026-11-21/part-b.parquet', 'date=2026-11-21/part-r0.parquet']);
  });

  it('two writers creating the table: one writes version 0 with protocol and metaData, the other follows', async () => {
    const { root, storage } = await newTable();
    const results = await Promise.all([write(storage, 0, 'part-a.parquet'), write(storage, 0, 'part-b.parquet')]);
    expect(results.map((r) => r.version).sort()).toEqual([0, 1]);
    const v1 = await storage.read('trade/_delta_log/00000000000000000001.json');
    expect(Buffer.from(v1!).toString()).not.toMatch(/"protocol"|"metaData"/);
    expect((await replayJsonLog(join(root, 'trade'))).live.size).toBe(2);
  });

  it('many writers on one version: every commit lands once, versions contiguous', async () => {
    const { storage } = await newTable();
    await write(storage, 0, 'part-0.parquet');
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => write(storage, 1, `part-${i + 1}.parquet`)));
    expect(results.map((r) => r.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await readDeltaSnapshot(storage, 'trade'))!.files.size).toBe(7);
  });

  it('on S3 (If-None-Match: *, refused as AWS refuses it): many writers on one version all land once, none lost', async () => {
    const fake = fakeConditionalS3();
    try {
      const storage = new S3Storage(fake.client, 's3://lake-bucket/prod');
      await write(storage, 0, 'part-0.parquet');
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => write(storage, 1, `part-${i + 1}.parquet`)));
      expect(results.map((r) => r.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      const adds: string[] = [];
      for (let v = 0; v <= 6; v++) {
        const text = Buffer.from((await storage.read(`trade/_delta_log/${String(v).padStart(20, '0')}.json`))!).toString();
        for (const line of text.trim().split('\n')) {
          const action = JSON.parse(line) as { add?: { path: string } };
          if (action.add) adds.push(action.add.path);
        }
      }
      expect(adds.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `date=2026-11-21/part-${i}.parquet`));
    } finally {
      fake.mock.restore();
    }
  });

  it('removing a file another commit already removed fails clearly, and writes nothing', async () => {
    const { root, storage } = await newTable();
    const old = file('part-old.parquet');
    await commitDeltaVersion(storage, 'trade', { add: [old] }, { expectedVersion: 0, operation: 'WRITE', metaData, now });
    const compaction = (name: string) =>
      commitDeltaVersion(storage, 'trade', { remove: [removeAction(old, T0, false)], add: [{ ...file(name), dataChange: false }] }, { expectedVersion: 1, operation: 'OPTIMIZE', now });
    await compaction('part-c1.parquet');
    const error = await compaction('part-c2.parquet').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeltaConflictError);
    expect(error).toMatchObject({ code: 'QL_DELTA_CONFLICT', version: 1, paths: ['date=2026-11-21/part-old.parquet'] });
    expect((error as Error).message).toMatch(/version 1 already removed date=2026-11-21\/part-old.parquet/);
    // The repair command of the hint names this lake, to be pasted as it is.
    expect((error as DeltaConflictError).hint).toContain(`"quotelake repair --output ${shellWord(root)} --dry-run" shows where`);
    const snapshot = (await readDeltaSnapshot(storage, 'trade'))!;
    expect(snapshot.version).toBe(1);
    expect([...snapshot.files.keys()]).toEqual(['date=2026-11-21/part-c1.parquet']);
  });

  it('a txn for a series another commit just advanced is a conflict too', async () => {
    const { storage } = await newTable();
    await write(storage, 0, 'part-0.parquet');
    const advance = (name: string, ms: number) =>
      commitDeltaVersion(storage, 'trade', { add: [file(name)], txn: [watermarkTxn('demo', '700.HK', ms, T0)] }, { expectedVersion: 1, operation: 'WRITE', now });
    await advance('part-1.parquet', T0);
    await expect(advance('part-2.parquet', T0 + 1)).rejects.toMatchObject({ code: 'QL_DELTA_CONFLICT', paths: ['txn quotelake:demo:700.HK'] });
  });

  it('gives up after the bounded attempts, retryable', async () => {
    const { root, storage } = await newTable();
    await write(storage, 0, 'part-0.parquet');
    // A store where every version is always already taken by an append of someone else's file.
    let taken = 0;
    const busy: LakeStorage = {
      ...storage,
      putIfAbsent: async (key, data) => {
        taken++;
        await storage.putIfAbsent(key, Buffer.from(String(data).replace('part-mine', `part-other-${taken}`)));
        return false;
      },
    };
    const error = await commitDeltaVersion(busy, 'trade', { add: [file('part-mine.parquet')] }, { expectedVersion: 1, operation: 'WRITE', now, maxAttempts: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeltaLogError);
    expect(error).toMatchObject({ code: 'QL_DELTA_LOG', retryable: true });
    expect((error as DeltaLogError).hint).toContain(`run the same command again and it resumes`);
    expect((error as DeltaLogError).hint).toContain(`"quotelake repair --output ${shellWord(root)} --dry-run"`);
    expect(taken).toBe(3);
  });

  it('never leaves a hole: a version after a missing one is refused', async () => {
    const { storage } = await newTable();
    await write(storage, 0, 'part-0.parquet');
    await expect(write(storage, 2, 'part-2.parquet')).rejects.toThrow(/cannot commit version 2: version 1 does not exist/);
    expect(await storage.exists('trade/_delta_log/00000000000000000002.json')).toBe(false);
  });

  it('refuses to create a table without its metaData', async () => {
    const { storage } = await newTable();
    await expect(commitDeltaVersion(storage, 'trade', { add: [file('p.parquet')] }, { expectedVersion: 0, operation: 'WRITE', now })).rejects.toThrow(/needs its metaData/);
  });
});
