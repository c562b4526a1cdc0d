/**
 * What a Delta engine sees: after every kind of commit (a first run of each dataset, an incremental
 * run merging into live files, compaction, repair dropping a damaged file, and enough versions for
 * a checkpoint), a reader that follows the protocol (protocol-read-rows.ts: checkpoint read with
 * DuckDB, JSON commits after it, partition columns from `partitionValues` cast to the schema's
 * types) sees exactly the rows of the manifest's plain files, and every live file's size, Parquet
 * types and stats (against its rows and its footer) are what the log says.
 */
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../../src/core/decimal.js';
import type { Dataset } from '../../../src/core/records.js';
import { compactLake } from '../../../src/lake/compact-lake.js';
import { PartitionedSink } from '../../../src/lake/commit/partitioned-sink.js';
import { datasetSpec } from '../../../src/lake/datasets/index.js';
import type { Manifest } from '../../../src/lake/commit/manifest.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { repairLake } from '../../../src/lake/repair-lake.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { depthRows, haltRows, klineRows, rawKline, T0, tradeRows } from '../../sinks/fixtures.js';
import { runContext } from '../../sinks/helpers.js';
import { BACKENDS, readText, useLakesOf, type Backend, type TestLakes } from '../test-lakes.js';
import { fileProblems, protocolSnapshot, rowsOfFiles, rowsThroughLog, type ProtocolSnapshot } from './protocol-read-rows.js';

let lakes: TestLakes;
const onBackend = (backend: Backend): void => useLakesOf(backend, (mine) => (lakes = mine));

const opened: PartitionedSink<unknown>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function commitRows(out: string, dataset: Dataset, run: string, records: readonly unknown[], maxRowsPerFile = 1_000_000): Promise<void> {
  const storage = lakes.storage(out);
  const sink = new PartitionedSink<unknown>({
    outputDir: out,
    spec: datasetSpec(dataset) as never,
    encoder: parquetEncoder({ rowGroupRows: 131072, timestampUnit: 'us' }),
    decimal: DEFAULT_DECIMAL,
    maxRowsPerFile,
    maxBufferedRows: 200_000,
    maxBufferedBytes: 1 << 30,
    table: 'delta',
    pipeline: 'view',
    ...(storage ? { storage } : {}),
  });
  opened.push(sink);
  await sink.recover(runContext(run));
  await sink.write({ stream: dataset, seq: 1, records: [...records] }, runContext(run));
  await sink.commit(runContext(run));
}

const DAY = 86_400;
/** Minute bars of two codes on three days, and their daily bars (the NULL `date` partition). */
const klines = (close: string, minutes: number[]) =>
  klineRows([
    ...['BTCUSDT', 'ETHUSDT'].flatMap((code) => [0, 1, 2].flatMap((day) => minutes.map((m) => rawKline(code, '1m', T0 + day * DAY + 60 * m, close)))),
    ...['BTCUSDT', 'ETHUSDT'].flatMap((code) => [0, 1, 2].map((day) => rawKline(code, '1d', T0 - 7 * 3600 + day * DAY, close))),
  ]);
const trades = (seqs: number[]) =>
  tradeRows(seqs.map((s) => ({ tick: { code: s % 2 === 0 ? 'AAPL.US' : '700.HK', seq: String(s), tick_time: String((T0 + s * 3600) * 1000 + 123), price: `${100 + s}.25`, volume: '3', turnover: '300.75', trade_direction: 1 as const }, fetchedAtMs: (T0 + s * 3600) * 1000 + 500 })));
const depths = () =>
  depthRows([
    { tick: { code: 'US500', seq: '1', tick_time: String(T0 * 1000 + 301), bids: [{ price: '4001.5', volume: '2' }], asks: [{ price: '4002.25' }] }, fetchedAtMs: T0 * 1000 + 900 },
    { tick: { code: 'BTCUSDT', seq: '7', tick_time: String((T0 + DAY) * 1000), bids: [], asks: [] }, fetchedAtMs: (T0 + DAY) * 1000 },
  ]);
const halts = () =>
  haltRows([
    { exchange: 'sse', record: { symbol: '688001', haltDate: '2024-01-10', publishDate: '2024-01-09 20:15:00' }, fetchedAtMs: 0 },
    { exchange: 'nasdaq', record: { symbol: 'GOOGL', haltDateTime: '2024-01-15 13:45:00', pauseThresholdPrice: '145.50', resumeDate: '2024-01-15', resumeTime: '13:55:00', resumeDateTime: '2024-01-15 14:00:00', sourceExchange: 'NASDAQ', publishDate: '2024-01-15 13:44:30' }, fetchedAtMs: 0 },
  ]);

async function manifestOf(out: string, dataset: Dataset): Promise<Manifest> {
  return JSON.parse(await readText(lakes, out, `_quotelake/manifests/${dataset}.parquet.json`)) as Manifest;
}

/** The protocol reader's rows are the manifest's plain files' rows; every live file is as logged. */
async function expectEnginesSeeTheFiles(out: string, dataset: Dataset): Promise<ProtocolSnapshot> {
  const dir = join(await lakes.localCopy(out), dataset);
  const snapshot = await protocolSnapshot(dir);
  expect(snapshot.protocol).toEqual({ minReaderVersion: 1, minWriterVersion: 2 });
  const manifest = await manifestOf(out, dataset);
  const viaLog = await rowsThroughLog(dir, snapshot);
  expect(viaLog).toEqual(await rowsOfFiles(manifest.files.map((f) => join(dir, f.path)), snapshot));
  expect(viaLog.length).toBe(manifest.files.reduce((n, f) => n + f.rows, 0));
  for (const [path, add] of snapshot.live) expect(await fileProblems(dir, path, add, snapshot), path).toEqual([]);
  return snapshot;
}

describe.each(BACKENDS)('a Delta table as an engine reads it (%s)', (backend) => {
  onBackend(backend);

  it('every dataset after its first run and an incremental run that merges into live files', async () => {
    const out = await lakes.fresh();
    await commitRows(out, 'kline', 'r1', klines('100.5', [0, 1, 2]));
    await commitRows(out, 'trade', 'r1', trades([1, 2, 3]));
    await commitRows(out, 'depth', 'r1', depths());
    await commitRows(out, 'halt', 'r1', halts());
    for (const dataset of ['kline', 'trade', 'depth', 'halt'] as const) await expectEnginesSeeTheFiles(out, dataset);
    // Overlapping keys: the live files are removed and merged files added, in one version.
    await commitRows(out, 'kline', 'r2', klines('101.25', [2, 3]));
    await commitRows(out, 'trade', 'r2', trades([3, 4]));
    const kline = await expectEnginesSeeTheFiles(out, 'kline');
    expect(kline.version).toBe(1);
    expect([...kline.live.values()].some((a) => a.partitionValues.date === null)).toBe(true);
    expect((await expectEnginesSeeTheFiles(out, 'trade')).version).toBe(1);
  }, 90_000); // six commits and DuckDB over each dataset: about 5 s idle, past 30 s on a busy machine

  it('after compaction (remove + add, dataChange false), repair, and from a checkpoint', async () => {
    const out = await lakes.fresh();
    // Twelve runs of disjoint minutes at one row per file (so no run compacts the partition itself):
    // small files for compaction, and a checkpoint at version 10.
    for (let i = 0; i < 12; i++) await commitRows(out, 'kline', `r${String(i).padStart(2, '0')}`, klineRows([rawKline('BTCUSDT', '1m', T0 + 600 * i, String(i + 1))]), 1);
    const checkpointed = await expectEnginesSeeTheFiles(out, 'kline');
    expect(checkpointed.fromCheckpoint).toBe(10);
    const storage = lakes.storage(out);
    await compactLake(out, { ...(storage ? { storage } : {}), ctx: runContext('compact'), dryRun: false, retiredGraceMs: 0, maxRowsPerFile: 1_000_000 });
    const compacted = await expectEnginesSeeTheFiles(out, 'kline');
    expect(checkpointed.live.size).toBe(12);
    expect(compacted.live.size).toBe(1);
    const optimize = (await readText(lakes, out, `kline/_delta_log/${String(compacted.version).padStart(20, '0')}.json`)).trim().split('\n').map((l) => JSON.parse(l) as Record<string, { dataChange?: boolean; operation?: string }>);
    expect(optimize[0]!.commitInfo!.operation).toBe('OPTIMIZE');
    expect(optimize.filter((a) => a.add || a.remove).map((a) => (a.add ?? a.remove)!.dataChange)).toEqual(Array(13).fill(false));
    // A live file damaged on disk: repair drops it from the manifest and the log alike.
    await commitRows(out, 'kline', 'r12', klineRows([rawKline('BTCUSDT', '1m', T0 + DAY * 2, '9')]));
    const victim = (await manifestOf(out, 'kline')).files.find((f) => f.path.includes('r12'))!;
    if (backend === 'local') await truncate(join(out, 'kline', victim.path), 100);
    else await lakes.write(out, `kline/${victim.path}`, 'not parquet');
    await repairLake(out, { ctx: runContext('repair'), dryRun: false, storage: storage ?? localStorage(out) });
    const repaired = await expectEnginesSeeTheFiles(out, 'kline');
    expect([...repaired.live.keys()]).not.toContain(victim.path);
  }, 90_000); // as above: 20 s measured under load 20
});
