/**
 * A long-lived table (a pipeline run every minute logs 1,440 versions a day) costs a commit no more
 * than a new one: the snapshot is read from the log's tail after the checkpoint `_last_checkpoint`
 * names, and whether a dataset is a Delta table takes one key, not a listing of its whole log
 * (each listing page of 1,000 keys is one more request on S3).
 */
import { describe, expect, it } from 'vitest';
import { addAction, commitDeltaVersion, datasetMetaData, readDeltaSnapshot } from '../../../src/lake/delta/index.js';
import { hasDeltaLog } from '../../../src/lake/delta/table-kind.js';
import type { LakeStorage, ListOptions } from '../../../src/lake/storage/lake-storage.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { tempDir } from '../../sinks/helpers.js';
import { T0, TABLE_ID } from './delta-fixture-table.js';

const VERSIONS = 300;

/** The storage, counting the keys its listings return. */
function counting(real: LakeStorage): { storage: LakeStorage; listed: () => number } {
  let listed = 0;
  const storage: LakeStorage = {
    ...real,
    list: async (prefix: string, options?: ListOptions) => {
      const keys = await real.list(prefix, options);
      listed += keys.length;
      return keys;
    },
  };
  return { storage, listed: () => listed };
}

describe('a long Delta log', () => {
  it(`is read from its tail: a snapshot of ${VERSIONS} versions lists a dozen keys, a table check one`, async () => {
    const real = localStorage(await tempDir('ql-delta-tail-'));
    const metaData = datasetMetaData('trade', { id: TABLE_ID, createdTime: T0 });
    for (let v = 0; v < VERSIONS; v++) {
      const add = addAction('trade', { relativeKey: `date=2026-11-21/part-${v}.parquet`, size: 100, modificationTime: T0 });
      await commitDeltaVersion(real, 'trade', { add: [add] }, { expectedVersion: v, operation: 'WRITE', metaData, now: () => T0 });
    }
    const { storage, listed } = counting(real);
    const snapshot = (await readDeltaSnapshot(storage, 'trade'))!;
    expect(snapshot.version).toBe(VERSIONS - 1);
    expect(snapshot.fromCheckpoint).toBe(290);
    expect(snapshot.files.size).toBe(VERSIONS);
    // 290's checkpoint and commit, 291..299, _last_checkpoint: not the 331 keys of the whole log.
    expect(listed()).toBe(12);
    expect(await hasDeltaLog(storage, 'trade')).toBe(true);
    expect(listed()).toBe(13);
    // An older version still reads from the whole log (its checkpoint is before the hint's).
    expect((await readDeltaSnapshot(storage, 'trade', 285))!.files.size).toBe(286);
  });

  it('falls back to the whole log when _last_checkpoint names a checkpoint that is not there', async () => {
    const real = localStorage(await tempDir('ql-delta-tail-'));
    const metaData = datasetMetaData('trade', { id: TABLE_ID, createdTime: T0 });
    for (let v = 0; v < 12; v++) {
      const add = addAction('trade', { relativeKey: `date=2026-11-21/part-${v}.parquet`, size: 100, modificationTime: T0 });
      await commitDeltaVersion(real, 'trade', { add: [add] }, { expectedVersion: v, operation: 'WRITE', metaData, now: () => T0 });
    }
    await real.publish('trade/_delta_log/_last_checkpoint', JSON.stringify({ version: 11, size: 3 }));
    const snapshot = (await readDeltaSnapshot(real, 'trade'))!;
    expect(snapshot.fromCheckpoint).toBe(10);
    expect(snapshot.files.size).toBe(12);
  });
});
