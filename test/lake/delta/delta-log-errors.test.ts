/** What the log reader refuses, and a commit whose checkpoint fails still being committed. */
import { describe, expect, it } from 'vitest';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import type { LakeStorage } from '../../../src/lake/storage/lake-storage.js';
import { addAction, commitDeltaVersion, datasetMetaData, readDeltaSnapshot } from '../../../src/lake/delta/index.js';
import { logDeltaUpkeep } from '../../../src/lake/commit/delta-upkeep-log.js';
import { silentLogger } from '../../../src/core/log-helpers.js';
import { tempDir } from '../../sinks/helpers.js';
import { T0, TABLE_ID } from './delta-fixture-table.js';

const now = () => T0;
const metaData = datasetMetaData('trade', { id: TABLE_ID, createdTime: T0 });
const file = (name: string) => addAction('trade', { relativeKey: `date=2026-11-21/${name}`, size: 1, modificationTime: T0 });

async function table(): Promise<LakeStorage> {
  const storage = localStorage(await tempDir('ql-delta-err-'));
  await commitDeltaVersion(storage, 'trade', { add: [file('p0.parquet')] }, { expectedVersion: 0, operation: 'WRITE', metaData, now });
  return storage;
}

describe('the Delta log reader refuses', () => {
  it('a line that is not JSON, naming the version and line', async () => {
    const storage = await table();
    await storage.putIfAbsent('trade/_delta_log/00000000000000000001.json', '{"add":{}}\n{not json\n');
    await expect(readDeltaSnapshot(storage, 'trade')).rejects.toMatchObject({ code: 'QL_DELTA_LOG', message: 'trade: version 1 (trade/_delta_log/00000000000000000001.json), line 2: not JSON' });
  });

  it('a table that needs a newer reader (table features it would ignore)', async () => {
    const storage = await table();
    await storage.putIfAbsent('trade/_delta_log/00000000000000000001.json', JSON.stringify({ protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['deletionVectors'], writerFeatures: ['deletionVectors'] } }) + '\n');
    await expect(readDeltaSnapshot(storage, 'trade')).rejects.toThrow(/needs Delta reader version 3/);
  });

  it('a version past the newest, and a log without metaData', async () => {
    const storage = await table();
    await expect(readDeltaSnapshot(storage, 'trade', 4)).rejects.toThrow(/version 4 does not exist \(newest 0\)/);
    const bare = localStorage(await tempDir('ql-delta-err-'));
    await bare.putIfAbsent('t/_delta_log/00000000000000000000.json', JSON.stringify({ add: file('x.parquet') }) + '\n');
    await expect(readDeltaSnapshot(bare, 't')).rejects.toThrow(/no protocol or metaData by version 0/);
  });

  it('a torn _last_checkpoint is only a hint: the listing still finds the checkpoint', async () => {
    const storage = await table();
    for (let v = 1; v <= 10; v++) await commitDeltaVersion(storage, 'trade', { add: [file(`p${v}.parquet`)] }, { expectedVersion: v, operation: 'WRITE', now });
    await storage.publish('trade/_delta_log/_last_checkpoint', '{"vers');
    const snapshot = (await readDeltaSnapshot(storage, 'trade'))!;
    expect(snapshot.fromCheckpoint).toBe(10);
    expect(snapshot.files.size).toBe(11);
  });
});

describe('a checkpoint that fails', () => {
  it('leaves the version committed and says why', async () => {
    const real = await table();
    const storage: LakeStorage = {
      ...real,
      publish: async (key, data) => {
        if (key.endsWith('.checkpoint.parquet')) throw new Error('store refused the checkpoint');
        await real.publish(key, data);
      },
    };
    let last;
    for (let v = 1; v <= 10; v++) last = await commitDeltaVersion(storage, 'trade', { add: [file(`p${v}.parquet`)] }, { expectedVersion: v, operation: 'WRITE', now });
    expect(last!.version).toBe(10);
    expect(last!.checkpoint).toBeUndefined();
    expect(String(last!.checkpointError)).toMatch(/store refused the checkpoint/);
    const snapshot = (await readDeltaSnapshot(real, 'trade'))!;
    expect(snapshot.fromCheckpoint).toBeUndefined();
    expect(snapshot.files.size).toBe(11);
    // The sink says it in the run's log (a warning), as it says a log cleanup it made or that stopped.
    const lines: string[] = [];
    const logger = { ...silentLogger, warn: (message: string, fields?: Record<string, unknown>) => void lines.push(`${message} ${JSON.stringify(fields)}`) };
    logDeltaUpkeep(logger, 'trade', last);
    expect(lines).toEqual([
      'the Delta checkpoint of version 10 could not be written (the version is committed; readers replay the log from the previous checkpoint until the next one): store refused the checkpoint {"event":"delta-upkeep","action":"checkpoint-failed","dataset":"trade","version":10}',
    ]);
  });
});
