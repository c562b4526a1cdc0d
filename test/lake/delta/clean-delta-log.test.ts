/**
 * Log cleanup: the commits and checkpoints before the newest checkpoint older than the log
 * retention go, and nothing else; the table reads the same from the checkpoint kept, and every
 * version within the retention stays readable. Ages are the entries' own times (a local file's
 * mtime here), set back as a table written over days would have them.
 */
import { utimes } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { addAction, commitDeltaVersion, datasetMetaData, readDeltaSnapshot } from '../../../src/lake/delta/index.js';
import { cleanDeltaLog } from '../../../src/lake/delta/clean-delta-log.js';
import { checkpointKey, commitKey, logPrefix } from '../../../src/lake/delta/delta-paths.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { modifiedAtOf } from '../../../src/lake/storage/modified-at.js';
import { tempDir } from '../../sinks/helpers.js';
import { T0, TABLE_ID } from './delta-fixture-table.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-12-31T00:00:00Z');

/** 25 versions (checkpoints at 10 and 20), version v written 25 - v days before NOW. */
async function tableOverDays() {
  const storage = localStorage(await tempDir('ql-delta-clean-'));
  const metaData = datasetMetaData('trade', { id: TABLE_ID, createdTime: T0 });
  for (let v = 0; v < 25; v++) {
    const add = addAction('trade', { relativeKey: `date=2026-11-21/part-${v}.parquet`, size: 100, modificationTime: T0 });
    await commitDeltaVersion(storage, 'trade', { add: [add] }, { expectedVersion: v, operation: 'WRITE', metaData, now: () => T0 });
  }
  const age = async (key: string, days: number) => {
    const at = new Date(NOW - days * 24 * HOUR);
    await utimes(storage.localPath(key)!, at, at);
  };
  for (let v = 0; v < 25; v++) await age(commitKey('trade', v), 25 - v);
  for (const v of [10, 20]) await age(checkpointKey('trade', v), 25 - v);
  return storage;
}

describe('cleanDeltaLog', () => {
  it('deletes the entries before the newest checkpoint older than the retention, and the table reads the same', async () => {
    const storage = await tableOverDays();
    const before = (await readDeltaSnapshot(storage, 'trade'))!;
    // 10 days: checkpoint 20 (5 days old) is too young, checkpoint 10 (15 days) is the one kept.
    const dry = await cleanDeltaLog(storage, 'trade', { logRetentionMs: 10 * 24 * HOUR, now: NOW, dryRun: true });
    expect(dry).toEqual({ historyFrom: 10, deleted: Array.from({ length: 10 }, (_, v) => commitKey('trade', v)) });
    expect((await storage.list(logPrefix('trade'))).length).toBe(25 + 2 + 1);

    const done = await cleanDeltaLog(storage, 'trade', { logRetentionMs: 10 * 24 * HOUR, now: NOW });
    expect(done).toEqual(dry);
    const left = (await storage.list(logPrefix('trade'))).sort();
    expect(left).toEqual([...Array.from({ length: 15 }, (_, i) => commitKey('trade', 10 + i)), checkpointKey('trade', 10), checkpointKey('trade', 20), `${logPrefix('trade')}_last_checkpoint`].sort());
    const after = (await readDeltaSnapshot(storage, 'trade'))!;
    expect(after.version).toBe(24);
    expect([...after.files.keys()].sort()).toEqual([...before.files.keys()].sort());
    // Within the retention every version reads; before the checkpoint kept, none does.
    expect((await readDeltaSnapshot(storage, 'trade', 12))!.files.size).toBe(13);
    await expect(readDeltaSnapshot(storage, 'trade', 9)).rejects.toThrow('version 0 is missing from the log (replaying to 9)');
  });

  it('deletes nothing while no checkpoint is older than the retention, nor an entry of unknown age', async () => {
    const storage = await tableOverDays();
    expect(await cleanDeltaLog(storage, 'trade', { logRetentionMs: 30 * 24 * HOUR, now: NOW })).toEqual({ deleted: [] });
    // Checkpoint 20 is old enough at 4 days; the entries before it whose age is unknown stay.
    const unknown = new Set([commitKey('trade', 3), checkpointKey('trade', 10)]);
    const known = modifiedAtOf(storage);
    const result = await cleanDeltaLog(storage, 'trade', { logRetentionMs: 4 * 24 * HOUR, now: NOW, modifiedAt: (key) => (unknown.has(key) ? Promise.resolve(undefined) : known(key)) });
    expect(result.historyFrom).toBe(20);
    expect(result.deleted).not.toContain(commitKey('trade', 3));
    expect(result.deleted).not.toContain(checkpointKey('trade', 10));
    expect(result.deleted).toHaveLength(19);
    expect((await readDeltaSnapshot(storage, 'trade'))!.files.size).toBe(25);
  });
});
