/**
 * Checkpoints every 10 versions: a Parquet file DuckDB and hyparquet read with the protocol's
 * columns, `_last_checkpoint`, and a reader that starts from it (the JSON before it deleted).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { addAction, commitDeltaVersion, datasetMetaData, readDeltaSnapshot, removeAction, watermarkTxn, type AddAction } from '../../../src/lake/delta/index.js';
import { tempDir } from '../../sinks/helpers.js';
import { T0, TABLE_ID } from './delta-fixture-table.js';
import { replayJsonLog } from './protocol-replay.js';

const MIN = 60_000;
let db: DuckDBInstance | undefined;
async function query(sql: string): Promise<Record<string, unknown>[]> {
  db ??= await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    c.closeSync();
  }
}
afterAll(() => db?.closeSync());

/** Versions 0-11 of a kline table: appends, one compaction at 5, a txn each time. */
async function tableWithTwelveVersions() {
  const root = await tempDir('ql-delta-cp-');
  const storage = localStorage(root);
  let clock = T0;
  const now = () => clock;
  const metaData = datasetMetaData('kline', { id: TABLE_ID, createdTime: T0 });
  const adds: AddAction[] = [];
  const results = [];
  for (let v = 0; v <= 11; v++) {
    clock = T0 + v * MIN;
    const add = addAction('kline', { relativeKey: `interval=1m/year=2026/date=2026-11-21/part-v${v}.parquet`, size: 100 + v, modificationTime: clock, series: new Map([['700.HK', { rows: 1, first: clock, last: clock }]]) });
    const txn = [watermarkTxn('demo', '700.HK', clock, clock)];
    if (v === 5) {
      const merged = { ...add, dataChange: false };
      results.push(await commitDeltaVersion(storage, 'kline', { remove: adds.splice(0, 2).map((a) => removeAction(a, clock, false)), add: [merged], txn }, { expectedVersion: v, operation: 'OPTIMIZE', now }));
      adds.push(merged);
    } else {
      results.push(await commitDeltaVersion(storage, 'kline', { add: [add], txn }, { expectedVersion: v, operation: 'WRITE', metaData, now }));
      adds.push(add);
    }
  }
  return { root, storage, results };
}

describe('Delta checkpoints', () => {
  it('writes version 10 as a Parquet checkpoint that DuckDB and hyparquet read', async () => {
    const { root, results } = await tableWithTwelveVersions();
    expect(results.map((r) => r.checkpoint?.version ?? null)).toEqual([null, null, null, null, null, null, null, null, null, null, 10, null]);
    expect(results[10]!.checkpointError).toBeUndefined();
    const cp = join(root, 'kline/_delta_log/00000000000000000010.checkpoint.parquet');
    // Live at 10: versions 2-10 (0 and 1 compacted away at 5), 2 tombstones, 1 txn, protocol, metaData.
    expect(JSON.parse(await readFile(join(root, 'kline/_delta_log/_last_checkpoint'), 'utf8'))).toMatchObject({ version: 10, size: 9 + 2 + 1 + 2, numOfAddFiles: 9 });

    const columns = await query(`DESCRIBE SELECT * FROM read_parquet('${cp}')`);
    expect(columns.map((c) => c.column_name)).toEqual(['txn', 'add', 'remove', 'metaData', 'protocol']);
    expect(columns.find((c) => c.column_name === 'add')!.column_type).toBe(
      'STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR)',
    );
    const adds = await query(`SELECT add.path AS path, add.partitionValues['date'] AS date, add.size AS size FROM read_parquet('${cp}') WHERE add IS NOT NULL ORDER BY path`);
    expect(adds.map((a) => a.path)).toEqual(Array.from({ length: 9 }, (_, i) => `interval=1m/year=2026/date=2026-11-21/part-v${i + 2}.parquet`).sort());
    expect(adds[0]).toMatchObject({ date: '2026-11-21' });
    const protocol = await query(`SELECT protocol.minReaderVersion AS r, protocol.minWriterVersion AS w FROM read_parquet('${cp}') WHERE protocol IS NOT NULL`);
    expect(protocol).toEqual([{ r: 1, w: 2 }]);
    const removes = await query(`SELECT remove.path AS path, remove.dataChange AS dc FROM read_parquet('${cp}') WHERE remove IS NOT NULL ORDER BY path`);
    expect(removes).toEqual([
      { path: 'interval=1m/year=2026/date=2026-11-21/part-v0.parquet', dc: false },
      { path: 'interval=1m/year=2026/date=2026-11-21/part-v1.parquet', dc: false },
    ]);

    const rows = (await parquetReadObjects({ file: (await readFile(cp)).buffer as ArrayBuffer })) as Record<string, Record<string, unknown> | null>[];
    const meta = rows.find((r) => r.metaData)!.metaData!;
    expect(meta.partitionColumns).toEqual(['interval', 'year', 'date']);
    expect(meta.id).toBe(TABLE_ID);
    expect(rows.find((r) => r.txn)!.txn).toMatchObject({ appId: 'quotelake:demo:700.HK', version: BigInt(T0 + 10 * MIN) });
  });

  it('the reader starts from the checkpoint: with the JSON of 0-9 gone, the snapshot is unchanged', async () => {
    const { root, storage } = await tableWithTwelveVersions();
    const full = await replayJsonLog(join(root, 'kline'));
    const before = (await readDeltaSnapshot(storage, 'kline'))!;
    expect(before.fromCheckpoint).toBe(10);
    // What the protocol's metadata cleanup may do: drop the commits a checkpoint covers.
    for (let v = 0; v <= 9; v++) await rm(join(root, `kline/_delta_log/${String(v).padStart(20, '0')}.json`));
    const after = (await readDeltaSnapshot(storage, 'kline'))!;
    expect(after.version).toBe(11);
    expect([...after.files.keys()].sort()).toEqual([...full.live.keys()].sort());
    for (const [path, add] of after.files) expect(add).toEqual(before.files.get(path));
    expect(after.txns.get('quotelake:demo:700.HK')!.version).toBe(T0 + 11 * MIN);
    expect(after.metaData).toEqual(before.metaData);
    expect([...after.tombstones.keys()].sort()).toEqual([...before.tombstones.keys()].sort());
    // Version 10 itself, read from the checkpoint alone.
    expect((await readDeltaSnapshot(storage, 'kline', 10))!.files.size).toBe(9);
    await expect(readDeltaSnapshot(storage, 'kline', 5)).rejects.toThrow(/version 0 is missing/);
  });
});
