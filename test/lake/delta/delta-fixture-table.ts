/** A small kline table on a local store with a frozen clock and a fixed table id, for several tests. */
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import type { LakeStorage } from '../../../src/lake/storage/lake-storage.js';
import { addAction, commitDeltaVersion, datasetMetaData, removeAction, watermarkTxn, type AddAction } from '../../../src/lake/delta/index.js';
import { tempDir } from '../../sinks/helpers.js';

export const T0 = Date.UTC(2026, 10, 21, 8, 0, 0);
export const TABLE_ID = '00000000-0000-4000-8000-000000000016';
export const DAY1 = 'interval=1m/year=2026/date=2026-11-21';
export const DAILY = 'interval=1d/year=2026/date=__HIVE_DEFAULT_PARTITION__';
const MIN = 60_000;

export interface FixtureTable {
  root: string;
  storage: LakeStorage;
  /** Live adds after the last commit, by relative key. */
  adds: Map<string, AddAction>;
}

/** Writes a data file (placeholder bytes: the log only needs its size) and returns its add. */
async function file(storage: LakeStorage, relativeKey: string, series: [string, number, number, number][], now: number, dataChange = true): Promise<AddAction> {
  const bytes = `rows of ${relativeKey}\n`;
  await storage.put(`kline/${relativeKey}`, bytes);
  return addAction(
    'kline',
    { relativeKey, size: Buffer.byteLength(bytes), modificationTime: now, series: new Map(series.map(([k, rows, first, last]) => [k, { rows, first, last }])) },
    dataChange,
  );
}

/**
 * Version 0: a first write (two 1m files, one daily file), 1: an append, 2: a compaction of the
 * two 1m files into one (dataChange false), 3: a txn update alone.
 */
export async function buildFixtureTable(): Promise<FixtureTable> {
  const root = await tempDir('ql-delta-');
  const storage = localStorage(root);
  let clock = T0;
  const now = () => clock;
  const metaData = datasetMetaData('kline', { id: TABLE_ID, createdTime: T0 });

  const a = await file(storage, `${DAY1}/part-r1-00001.parquet`, [['700.HK', 60, T0 - 60 * MIN, T0 - MIN]], clock);
  const b = await file(storage, `${DAY1}/part-r1-00002.parquet`, [['9988.HK', 60, T0 - 60 * MIN, T0 - MIN]], clock);
  const d = await file(storage, `${DAILY}/part-r1-00003.parquet`, [['700.HK', 1, Date.UTC(2026, 10, 20), Date.UTC(2026, 10, 20)]], clock);
  await commitDeltaVersion(storage, 'kline', { add: [a, b, d], txn: [watermarkTxn('demo', '700.HK', T0 - MIN, clock), watermarkTxn('demo', '9988.HK', T0 - MIN, clock)] }, { expectedVersion: 0, operation: 'WRITE', operationParameters: { mode: 'Append' }, metaData, now });

  clock += 5 * MIN;
  const c = await file(storage, `${DAY1}/part-r2-00001.parquet`, [['700.HK', 5, T0, T0 + 4 * MIN], ['9988.HK', 5, T0, T0 + 4 * MIN]], clock);
  await commitDeltaVersion(storage, 'kline', { add: [c], txn: [watermarkTxn('demo', '700.HK', T0 + 4 * MIN, clock), watermarkTxn('demo', '9988.HK', T0 + 4 * MIN, clock)] }, { expectedVersion: 1, operation: 'WRITE', operationParameters: { mode: 'Append' }, now });

  clock += 5 * MIN;
  const merged = await file(storage, `${DAY1}/part-c3-00001.parquet`, [['700.HK', 60, T0 - 60 * MIN, T0 - MIN], ['9988.HK', 60, T0 - 60 * MIN, T0 - MIN]], clock, false);
  await commitDeltaVersion(storage, 'kline', { remove: [removeAction(a, clock, false), removeAction(b, clock, false)], add: [merged] }, { expectedVersion: 2, operation: 'OPTIMIZE', operationParameters: { predicate: '[]' }, now });

  clock += 5 * MIN;
  await commitDeltaVersion(storage, 'kline', { txn: [watermarkTxn('demo', '700.HK', T0 + 9 * MIN, clock)] }, { expectedVersion: 3, operation: 'WRITE', operationParameters: { mode: 'Append' }, now });

  const adds = new Map([c, d, merged].map((x) => [decodeURIComponent(x.path), x]));
  return { root, storage, adds };
}
