/**
 * The log cleanup a checkpoint runs, as Delta's writers do (PROTOCOL.md "Metadata Cleanup"), by
 * the table's own `delta.logRetentionDuration` (default 30 days) unless its
 * `delta.enableExpiredLogCleanup` is false: on a local folder and on S3, the entries before the
 * newest checkpoint older than the retention go, and afterwards a reader written from the protocol
 * (listing only, no `_last_checkpoint`) reads every version from that checkpoint on, including
 * every version within the retention, and the newest as quotelake reads it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointKey, commitDeltaVersion, commitKey, lastCheckpointKey, logPrefix, readDeltaSnapshot, type CommitResult } from '../../../src/lake/delta/index.js';
import { BACKENDS, useLakesOf, type Backend, type TestLakes } from '../test-lakes.js';
import { cleanDeltaLog } from '../../../src/lake/delta/clean-delta-log.js';
import { vacuumLake } from '../../../src/lake/vacuum-lake.js';
import { formatVacuum } from '../../../src/cli/actions/vacuum.js';
import { addOf, agedTradeTable, AGED_VERSIONS, DAY, NOW, storageOf, writtenAt } from './aged-delta-table.js';
import { logVersions, readVersion } from './protocol-time-travel.js';

let lakes: TestLakes;
const onBackend = (backend: Backend): void => useLakesOf(backend, (mine) => (lakes = mine));

/** Version 30 committed at NOW: its checkpoint, and the cleanup after it. */
async function commitCheckpointVersion(configuration: Record<string, string> = {}): Promise<{ out: string; result: CommitResult }> {
  const { out, storage, metaData } = await agedTradeTable(lakes, configuration);
  const result = await commitDeltaVersion(storage, 'trade', { add: [addOf(AGED_VERSIONS)] }, { expectedVersion: AGED_VERSIONS, operation: 'WRITE', metaData, now: () => NOW });
  expect(result.version).toBe(AGED_VERSIONS);
  expect(result.checkpoint?.version).toBe(AGED_VERSIONS);
  return { out, result };
}

const files = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `date=2026-11-21/part-${from + i}.parquet`).sort();

/** Every version from `first` to the newest reads through the protocol reader, each with its files. */
async function expectReadableFrom(out: string, first: number, last = AGED_VERSIONS): Promise<void> {
  const table = join(await lakes.localCopy(out), 'trade');
  for (let v = first; v <= last; v++) expect((await readVersion(table, v)).live, `version ${v}`).toEqual(files(0, v));
  if (first > 0) await expect(readVersion(table, first - 1)).rejects.toThrow(`version ${first - 1} cannot be read`);
  const newest = (await readDeltaSnapshot(storageOf(lakes, out), 'trade'))!;
  expect(newest.version).toBe(last);
  expect([...newest.files.keys()].sort()).toEqual(files(0, last));
}


describe.each(BACKENDS)('log cleanup at a checkpoint (%s)', (backend) => {
  onBackend(backend);

  it('by default (30 days): the entries before the newest checkpoint older than 30 days go, every later version reads', async () => {
    const { out, result } = await commitCheckpointVersion();
    // Checkpoint 10 was written 35 days ago, checkpoint 20 25 days ago: 10 is the one kept.
    expect(result.logCleanup).toEqual({ historyFrom: 10, deleted: Array.from({ length: 10 }, (_, v) => commitKey('trade', v)) });
    expect(result.logCleanupError).toBeUndefined();
    expect(await logVersions(join(await lakes.localCopy(out), 'trade'))).toEqual({ commits: Array.from({ length: 21 }, (_, i) => 10 + i), checkpoints: [10, 20, 30] });
    // Every version written within the 30 days (16 on) reads, and so does every one back to 10.
    expect(writtenAt(16)).toBeGreaterThan(NOW - 30 * DAY);
    await expectReadableFrom(out, 10);
  });

  it("by the table's delta.logRetentionDuration: 3 weeks keeps from checkpoint 20", async () => {
    const { out, result } = await commitCheckpointVersion({ 'delta.logRetentionDuration': 'interval 3 weeks' });
    expect(result.logCleanup?.historyFrom).toBe(20);
    expect(result.logCleanup?.deleted).toEqual([...Array.from({ length: 20 }, (_, v) => commitKey('trade', v)), checkpointKey('trade', 10)].sort());
    expect(writtenAt(25)).toBeGreaterThan(NOW - 21 * DAY);
    await expectReadableFrom(out, 20);
    expect((await lakes.keys(out, logPrefix('trade').slice(0, -1))).filter((k) => !k.endsWith('.json'))).toEqual([
      '00000000000000000020.checkpoint.parquet',
      '00000000000000000030.checkpoint.parquet',
      '_last_checkpoint',
    ]);
  });

  it('nothing goes when delta.enableExpiredLogCleanup is false, or the retention is no interval quotelake reads', async () => {
    for (const configuration of <Record<string, string>[]>[
      { 'delta.enableExpiredLogCleanup': 'false', 'delta.logRetentionDuration': 'interval 1 day' },
      { 'delta.logRetentionDuration': 'interval 1 month' },
      { 'delta.enableExpiredLogCleanup': 'yes' },
    ]) {
      const { out, result } = await commitCheckpointVersion(configuration);
      expect(result.logCleanup, JSON.stringify(configuration)).toBeUndefined();
      await expectReadableFrom(out, 0);
    }
  });

  it('a writer that lost its lease deletes nothing; its version and checkpoint are in', async () => {
    const { out, storage, metaData } = await agedTradeTable(lakes);
    const guard = () => {
      throw new Error('lease lost');
    };
    const result = await commitDeltaVersion(storage, 'trade', { add: [addOf(AGED_VERSIONS)] }, { expectedVersion: AGED_VERSIONS, operation: 'WRITE', metaData, now: () => NOW, guard });
    expect(result.checkpoint?.version).toBe(AGED_VERSIONS);
    expect(String(result.logCleanupError)).toContain('lease lost');
    await expectReadableFrom(out, 0);
  });

  it('keeps the checkpoint _last_checkpoint names, should it lag behind the one old enough', async () => {
    const { out, storage } = await agedTradeTable(lakes);
    // A slow writer of checkpoint 10 published its _last_checkpoint after the writer of 20 did.
    await storage.publish(lastCheckpointKey('trade'), JSON.stringify({ version: 10, size: 13 }));
    const result = await cleanDeltaLog(storage, 'trade', { logRetentionMs: 21 * DAY, now: NOW });
    expect(result).toEqual({ historyFrom: 10, deleted: Array.from({ length: 10 }, (_, v) => commitKey('trade', v)) });
    await expectReadableFrom(out, 10, AGED_VERSIONS - 1);
  });

  it('a reader whose entries a cleanup deletes mid-replay reads again from the newer checkpoint', async () => {
    const { out, storage, metaData } = await agedTradeTable(lakes);
    let raced = false;
    // Right after the reader listed the log (hint: checkpoint 20), another writer commits version 30
    // and a cleanup with no retention deletes everything before its checkpoint, 20 included.
    const racing = new Proxy(storage, {
      get(target, name) {
        if (name === 'read') {
          return async (key: string) => {
            if (!raced && key === checkpointKey('trade', 20)) {
              raced = true;
              await commitDeltaVersion(storage, 'trade', { add: [addOf(AGED_VERSIONS)] }, { expectedVersion: AGED_VERSIONS, operation: 'WRITE', metaData, now: () => NOW });
              await cleanDeltaLog(storage, 'trade', { logRetentionMs: 0, now: NOW, modifiedAt: async () => 0 });
            }
            return target.read(key);
          };
        }
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const snapshot = (await readDeltaSnapshot(racing, 'trade'))!;
    expect(raced).toBe(true);
    expect(snapshot.version).toBe(AGED_VERSIONS);
    expect(snapshot.fromCheckpoint).toBe(AGED_VERSIONS);
    expect([...snapshot.files.keys()].sort()).toEqual(files(0, AGED_VERSIONS));
    expect((await logVersions(join(await lakes.localCopy(out), 'trade'))).checkpoints).toEqual([30]);
  });

  it("quotelake vacuum without --log-retention cleans by the table's own rule, and keeps the log of a table that turns cleanup off", async () => {
    const vacuum = (out: string, logRetentionMs: number | 'table') => vacuumLake(storageOf(lakes, out), { retentionMs: 7 * DAY, logRetentionMs, now: NOW, dryRun: false, dataset: 'trade' });
    const weeks = await agedTradeTable(lakes, { 'delta.logRetentionDuration': 'interval 3 weeks' });
    const [byTable] = await vacuum(weeks.out, 'table');
    expect(byTable!.log?.historyFrom).toBe(20);
    await expectReadableFrom(weeks.out, 20, AGED_VERSIONS - 1);
    const off = await agedTradeTable(lakes, { 'delta.enableExpiredLogCleanup': 'false' });
    const [kept] = await vacuum(off.out, 'table');
    expect(kept!.log).toBeUndefined();
    expect(formatVacuum(kept!, false)).toContain('trade: Delta log: kept whole (delta.enableExpiredLogCleanup is false)\n');
    await expectReadableFrom(off.out, 0, AGED_VERSIONS - 1);
    // An explicit retention is the operator's, whatever the table says.
    const [explicit] = await vacuum(off.out, 30 * DAY);
    expect(explicit!.log?.historyFrom).toBe(10);
  });
});
