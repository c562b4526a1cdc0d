/** vacuumDelta deletes only unreferenced files older than the retention; never the log nor a live file. */
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vacuumDelta } from '../../../src/lake/delta/index.js';
import { buildFixtureTable, DAILY, DAY1, T0 } from './delta-fixture-table.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

async function withOrphans() {
  const table = await buildFixtureTable();
  // An orphan a crashed writer left a day before T0, and one being written right now.
  await table.storage.put(`kline/${DAY1}/part-crashed.parquet`, 'x');
  await utimes(join(table.root, 'kline', DAY1, 'part-crashed.parquet'), new Date(T0 - 24 * HOUR), new Date(T0 - 24 * HOUR));
  await table.storage.put(`kline/${DAY1}/part-in-flight.parquet`, 'x');
  await utimes(join(table.root, 'kline', DAY1, 'part-in-flight.parquet'), new Date(T0 + HOUR), new Date(T0 + HOUR));
  // Hidden paths are not the table's data (Delta's vacuum skips them too).
  await table.storage.put('kline/_quotelake_notes/old.parquet', 'x');
  // The Arrow sink's files share the dataset folder; they are not the Delta table's.
  await table.storage.put(`kline/${DAY1}/part-r1-00001.arrow`, 'x');
  await utimes(join(table.root, 'kline', DAY1, 'part-r1-00001.arrow'), new Date(T0 - 24 * HOUR), new Date(T0 - 24 * HOUR));
  return table;
}

describe('vacuumDelta', () => {
  it('lists, on a dry run, the tombstones past the retention and old orphans, and deletes nothing', async () => {
    const { storage } = await withOrphans();
    const before = (await storage.list('kline/')).sort();
    // Compaction removed the two r1 files at T0+10min; with 7 days' retention 8 days later they go.
    const now = T0 + 10 * MIN + 8 * 24 * HOUR;
    const result = await vacuumDelta(storage, 'kline', { retentionMs: 7 * 24 * HOUR, now, dryRun: true });
    expect(result.version).toBe(3);
    expect(result.deleted).toEqual([`kline/${DAY1}/part-crashed.parquet`, `kline/${DAY1}/part-in-flight.parquet`, `kline/${DAY1}/part-r1-00001.parquet`, `kline/${DAY1}/part-r1-00002.parquet`]);
    expect((await storage.list('kline/')).sort()).toEqual(before);
  });

  it('keeps what is younger than the retention, deletes the rest, and never a live file or the log', async () => {
    const { storage, adds } = await withOrphans();
    // One hour after the compaction: tombstones are younger than 2 hours, the crashed orphan is not.
    const result = await vacuumDelta(storage, 'kline', { retentionMs: 2 * HOUR, now: T0 + 10 * MIN + HOUR });
    expect(result.deleted).toEqual([`kline/${DAY1}/part-crashed.parquet`]);
    expect(result.kept).toEqual([`kline/${DAY1}/part-in-flight.parquet`, `kline/${DAY1}/part-r1-00001.parquet`, `kline/${DAY1}/part-r1-00002.parquet`]);
    const left = new Set(await storage.list('kline/'));
    for (const path of adds.keys()) expect(left.has(`kline/${path}`)).toBe(true);
    expect(left.has('kline/_delta_log/00000000000000000000.json')).toBe(true);
    expect(left.has('kline/_quotelake_notes/old.parquet')).toBe(true);
    expect(left.has(`kline/${DAY1}/part-r1-00001.arrow`)).toBe(true);
    expect(left.has(`kline/${DAY1}/part-crashed.parquet`)).toBe(false);

    const later = await vacuumDelta(storage, 'kline', { retentionMs: 2 * HOUR, now: T0 + 10 * MIN + 3 * HOUR });
    expect(later.deleted).toEqual([`kline/${DAY1}/part-in-flight.parquet`, `kline/${DAY1}/part-r1-00001.parquet`, `kline/${DAY1}/part-r1-00002.parquet`]);
    expect((await storage.list('kline/')).filter((k) => k.endsWith('.parquet') && !k.includes('/_')).sort()).toEqual([...adds.keys()].map((p) => `kline/${p}`).sort());
    expect(adds.has(`${DAILY}/part-r1-00003.parquet`)).toBe(true);
  });

  it('stops before the next delete once its lease is lost, having deleted only what came before', async () => {
    const { storage } = await withOrphans();
    let deletes = 0;
    const guard = () => {
      if (deletes++ === 1) throw new Error('lease lost');
    };
    const now = T0 + 10 * MIN + 8 * 24 * HOUR;
    await expect(vacuumDelta(storage, 'kline', { retentionMs: 7 * 24 * HOUR, now, guard })).rejects.toThrow('lease lost');
    const left = new Set(await storage.list('kline/'));
    expect(left.has(`kline/${DAY1}/part-crashed.parquet`)).toBe(false);
    for (const kept of ['part-in-flight.parquet', 'part-r1-00001.parquet', 'part-r1-00002.parquet']) expect(left.has(`kline/${DAY1}/${kept}`), kept).toBe(true);
  });

  it('keeps an orphan whose age the store cannot tell', async () => {
    const { storage } = await withOrphans();
    const result = await vacuumDelta(storage, 'kline', { retentionMs: 0, now: T0 + 48 * HOUR, modifiedAt: async () => undefined });
    expect(result.deleted).toEqual([`kline/${DAY1}/part-r1-00001.parquet`, `kline/${DAY1}/part-r1-00002.parquet`]);
    expect(result.kept).toEqual([`kline/${DAY1}/part-crashed.parquet`, `kline/${DAY1}/part-in-flight.parquet`]);
  });

  it('does nothing where there is no table', async () => {
    const { storage } = await buildFixtureTable();
    expect(await vacuumDelta(storage, 'trade', { retentionMs: 0, now: T0 })).toEqual({ deleted: [], kept: [] });
  });
});
