/**
 * The partitioned sink with `table: 'delta'`: every commit logs one Delta version (adds, removes,
 * series watermarks as txn), the log replays (test reader, from the protocol) to exactly the files
 * the manifest lists, a crash at any roll-forward step is finished by recover() with nothing twice,
 * compaction logs dataChange false, and the files store TIMESTAMP(MICROS, UTC) with exact values.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DepthRow, HaltRow, KlineRow } from '../../../src/core/records.js';
import { DEFAULT_DECIMAL } from '../../../src/core/decimal.js';
import { ConfigError, DeltaConflictError } from '../../../src/core/errors.js';
import { PartitionedSink } from '../../../src/lake/commit/partitioned-sink.js';
import type { Manifest } from '../../../src/lake/commit/manifest.js';
import type { DatasetSpec } from '../../../src/lake/datasets/dataset-spec.js';
import { klineSpec } from '../../../src/lake/datasets/kline.js';
import { datasetSpec } from '../../../src/lake/datasets/index.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { parquetPool } from '../../../src/lake/parquet/parquet-pool.js';
import { compactLake } from '../../../src/lake/compact-lake.js';
import { watermarkAppId } from '../../../src/lake/delta/delta-txn.js';
import { readDeltaSnapshot } from '../../../src/lake/delta/delta-snapshot.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { finishPendingCommits } from '../../../src/lake/commit/commit-journal.js';
import { repairLake } from '../../../src/lake/repair-lake.js';
import { vacuumLake } from '../../../src/lake/vacuum-lake.js';
import { inspectOutput } from '../../../src/cli/inspect/inspect-output.js';
import { renderInspect } from '../../../src/cli/inspect/render-inspect.js';
import { depthRows, haltRows, klineRows, rawKline, T0, BIG_TURNOVER, SHIB_CLOSE } from '../../sinks/fixtures.js';
import { duck, runContext } from '../../sinks/helpers.js';
import { BACKENDS, readText, useLakesOf, type Backend, type TestLakes } from '../test-lakes.js';
import { replayJsonLog } from './protocol-replay.js';

/** The lakes of the backend whose describe block runs now (the blocks of a file run one after another). */
let lakes: TestLakes;
const onBackend = (backend: Backend): void => useLakesOf(backend, (mine) => (lakes = mine));

/** The lake's storage for a sink or compactLake: none on the local backend (its default). */
const storageOf = (out: string) => {
  const storage = lakes.storage(out);
  return storage === undefined ? {} : { storage };
};

/** A local folder with the lake's objects, for the test reader and DuckDB (a download on S3). */
const here = (out: string): Promise<string> => lakes.localCopy(out);

const opened: PartitionedSink<unknown>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

interface SinkOptions {
  table?: 'delta' | 'hive';
  workers?: number;
  hooks?: { afterStep?(step: string): void };
  maxRowsPerFile?: number;
}

function sinkOf<R>(out: string, spec: DatasetSpec<R>, o: SinkOptions = {}): PartitionedSink<R> {
  const table = o.table ?? 'delta';
  const timestampUnit = table === 'delta' ? 'us' : 'ms';
  const writer = (o.workers ?? 0) > 0 ? parquetPool(o.workers!, { dataset: spec.dataset, decimal: DEFAULT_DECIMAL, rowGroupRows: 131072, timestampUnit }) : undefined;
  const s = new PartitionedSink<R>({
    outputDir: out,
    spec,
    encoder: parquetEncoder({ rowGroupRows: 131072, timestampUnit }),
    decimal: DEFAULT_DECIMAL,
    maxRowsPerFile: o.maxRowsPerFile ?? 1_000_000,
    maxBufferedRows: 200_000,
    maxBufferedBytes: 1 << 30,
    table,
    pipeline: 'btc-1m',
    ...(o.hooks ? { hooks: o.hooks } : {}),
    ...(writer ? { writer } : {}),
    ...storageOf(out),
  });
  opened.push(s as PartitionedSink<unknown>);
  return s;
}

const bars = (minutes: number[], close: string, code = 'BTCUSDT', final = true) =>
  klineRows(minutes.map((m) => rawKline(code, '1m', T0 + 60 * m, close, final, m === minutes[0] ? BIG_TURNOVER : '1175337.4468315')));

async function manifestOf(out: string, dataset = 'kline'): Promise<Manifest> {
  return JSON.parse(await readText(lakes, out, `_quotelake/manifests/${dataset}.parquet.json`)) as Manifest;
}

/** The log (read by the test reader) names exactly the manifest's live files. */
async function expectLogMatchesManifest(out: string, dataset = 'kline'): Promise<Map<string, Record<string, string | null>>> {
  const replayed = await replayJsonLog(join(await here(out), dataset));
  const manifest = await manifestOf(out, dataset);
  expect([...replayed.live.keys()].sort()).toEqual(manifest.files.map((f) => f.path).sort());
  return replayed.live;
}

async function logLines(out: string, dataset = 'kline'): Promise<Record<string, Record<string, unknown>>[][]> {
  const names = (await lakes.keys(out, `${dataset}/_delta_log`)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(names.map(async (n) => (await readText(lakes, out, `${dataset}/_delta_log/${n}`)).trim().split('\n').map((l) => JSON.parse(l) as Record<string, Record<string, unknown>>)));
}

const sql = (files: string[]) => `read_parquet([${files.map((f) => `'${f}'`).join(',')}], hive_partitioning = true)`;

const withWorkers = BACKENDS.flatMap((backend) => [0, 1].map((workers) => [backend, workers] as const));
describe.each(withWorkers)('a Delta table from the parquet sink (%s, encode workers: %i)', (backend, workers) => {
  onBackend(backend);
  it('logs each commit: adds, merges as remove + add, watermarks as txn; the log replays to the manifest', async () => {
    const out = await lakes.fresh();
    const s1 = sinkOf(out, klineSpec, { workers });
    const c1 = runContext('r1');
    await s1.write({ stream: 'k', seq: 1, records: [...bars([0, 1, 2], '100.5'), ...bars([0, 1], SHIB_CLOSE, 'SHIBUSDT')] }, c1);
    await s1.commit(c1);
    const first = await expectLogMatchesManifest(out);
    expect([...first.values()]).toEqual([{ interval: '1m', year: '2025', date: '2025-11-19' }]);

    // Run 2 rewrites minute 2 and adds 3: the live file is merged (removed), one new file holds all.
    const s2 = sinkOf(out, klineSpec, { workers });
    const c2 = runContext('r2');
    await s2.write({ stream: 'k', seq: 1, records: bars([2, 3], '101.25') }, c2);
    await s2.commit(c2);
    const live = await expectLogMatchesManifest(out);
    expect(live.size).toBe(1);

    const log = await logLines(out);
    expect(log).toHaveLength(2);
    expect(Object.keys(log[0]![1]!)).toEqual(['protocol']);
    const v1 = log[1]!;
    expect(v1[0]!.commitInfo!.operation).toBe('WRITE');
    expect(v1.filter((a) => a.remove).map((a) => a.remove!.dataChange)).toEqual([true]);
    expect(v1.filter((a) => a.add).map((a) => a.add!.dataChange)).toEqual([true]);
    const replayed = await replayJsonLog(join(await here(out), 'kline'));
    const ms = (m: number) => (T0 + 60 * m) * 1000;
    expect(replayed.txns).toEqual({ [watermarkAppId('btc-1m', 'BTCUSDT/1m')]: ms(3), [watermarkAppId('btc-1m', 'SHIBUSDT/1m')]: ms(1) });
    const stats = JSON.parse(v1.find((a) => a.add)!.add!.stats as string) as { numRecords: number; minValues: Record<string, string> };
    expect(stats.numRecords).toBe(6);
    expect(stats.minValues.ts).toBe(new Date(ms(0)).toISOString());

    // DuckDB reads the files the log names: microsecond UTC instants, values exact.
    const copy = await here(out);
    const files = [...live.keys()].map((p) => join(copy, 'kline', p));
    const schema = await duck(`SELECT name, logical_type::VARCHAR AS lt, converted_type FROM parquet_schema('${files[0]}') WHERE name = 'ts'`);
    expect(schema[0]!.lt).toMatch(/TimestampType\(isAdjustedToUTC=(1|true), unit=TimeUnit\(MILLIS=<null>, MICROS=MicroSeconds\(\)/);
    const rows = await duck(`SELECT code, epoch_us(ts) AS us, close::VARCHAR AS close, turnover::VARCHAR AS turnover, interval FROM ${sql(files)} ORDER BY code, ts`);
    expect(rows.map((r) => [r.code, String(r.us), r.close, r.interval])).toEqual([
      ['BTCUSDT', String(ms(0) * 1000), '100.500000000000000000', '1m'],
      ['BTCUSDT', String(ms(1) * 1000), '100.500000000000000000', '1m'],
      ['BTCUSDT', String(ms(2) * 1000), '101.250000000000000000', '1m'],
      ['BTCUSDT', String(ms(3) * 1000), '101.250000000000000000', '1m'],
      ['SHIBUSDT', String(ms(0) * 1000), '0.000018712345600000', '1m'],
      ['SHIBUSDT', String(ms(1) * 1000), '0.000018712345600000', '1m'],
    ]);
    expect(rows[0]!.turnover).toBe(BIG_TURNOVER);
  });
});

describe.each(BACKENDS)('a Delta table: every dataset, and the same rows as a hive table (%s)', (backend) => {
  onBackend(backend);
  it('kline through delta and through hive: identical rows, only the instants unit differs', async () => {
    const [delta, hive] = [await lakes.fresh(), await lakes.fresh()];
    for (const [out, table] of [[delta, 'delta'], [hive, 'hive']] as const) {
      const s = sinkOf(out, klineSpec, { table });
      const c = runContext('r1');
      await s.write({ stream: 'k', seq: 1, records: [...bars([0, 1, 2], '100.5'), ...bars([5], '7', 'ETHUSDT', false)] }, c);
      await s.commit(c);
    }
    expect(await lakes.keys(hive, 'kline/_delta_log')).toEqual([]);
    const [deltaCopy, hiveCopy] = [await here(delta), await here(hive)];
    const deltaFiles = [...(await expectLogMatchesManifest(delta)).keys()].map((p) => join(deltaCopy, 'kline', p));
    const hiveFiles = (await manifestOf(hive)).files.map((f) => join(hiveCopy, 'kline', f.path));
    const q = (files: string[]) => duck(`SELECT code, epoch_ms(ts)::VARCHAR AS ts, open::VARCHAR o, close::VARCHAR c, turnover::VARCHAR t, final FROM ${sql(files)} ORDER BY code, ts`);
    expect(await q(deltaFiles)).toEqual(await q(hiveFiles));
    const hiveType = await duck(`SELECT logical_type::VARCHAR AS lt FROM parquet_schema('${hiveFiles[0]}') WHERE name = 'ts'`);
    expect(hiveType[0]!.lt).toMatch(/MILLIS=MilliSeconds/);
  });

  it('depth and halt (the parquet-wasm path, nullable instants) store microseconds, exactly', async () => {
    const out = await lakes.fresh();
    const depth = sinkOf(out, datasetSpec('depth') as DatasetSpec<DepthRow>);
    const halt = sinkOf(out, datasetSpec('halt') as DatasetSpec<HaltRow>);
    const c = runContext('r1');
    await depth.write({ stream: 'd', seq: 1, records: depthRows([{ tick: { code: 'US500', seq: '1', tick_time: '1677830357301', bids: [], asks: [{ price: '4002.25' }] }, fetchedAtMs: 1677830358000 }]) }, c);
    await halt.write({ stream: 'h', seq: 1, records: haltRows([{ exchange: 'sse', record: { symbol: '688001', haltDate: '2024-01-10', publishDate: '2024-01-09 20:15:00' }, fetchedAtMs: 0 }]) }, c);
    await depth.commit(c);
    await halt.commit(c);
    const copy = await here(out);
    const [d] = [...(await expectLogMatchesManifest(out, 'depth')).keys()].map((p) => join(copy, 'depth', p));
    const [h] = [...(await expectLogMatchesManifest(out, 'halt')).keys()].map((p) => join(copy, 'halt', p));
    const types = await duck(`SELECT name, logical_type::VARCHAR AS lt FROM parquet_schema(['${d}', '${h}']) WHERE logical_type::VARCHAR LIKE 'TimestampType%'`);
    expect(types.length).toBeGreaterThanOrEqual(5);
    for (const t of types) expect(t.lt).toMatch(/MICROS=MicroSeconds/);
    expect(await duck(`SELECT epoch_us(ts)::VARCHAR ts, epoch_us(fetched_at)::VARCHAR f FROM '${d}'`)).toEqual([{ ts: '1677830357301000', f: '1677830358000000' }]);
    // Nullable instants keep their nulls (the record has no resume time).
    const hr = await duck(`SELECT epoch_us(published_at)::VARCHAR p, resume_trade_at IS NULL AS r0 FROM '${h}'`);
    expect(hr).toEqual([{ p: String(Date.parse('2024-01-09T12:15:00Z') * 1000), r0: true }]);
  });
});

describe.each(BACKENDS)('a Delta table: crashes, conflicts, compaction, kinds (%s)', (backend) => {
  onBackend(backend);
  const steps = ['add', 'delta', 'manifest', 'journal'];
  it('a writer whose lease is lost mid-commit (paused after its Delta version) writes nothing more; the next holder finishes the commit', async () => {
    const out = await lakes.fresh();
    const s1 = sinkOf(out, klineSpec);
    await s1.write({ stream: 'k', seq: 1, records: bars([0, 1], '1') }, runContext('r1'));
    await s1.commit(runContext('r1'));
    const before = await manifestOf(out);
    let lost = false;
    const s2 = sinkOf(out, klineSpec, { hooks: { afterStep: (step) => void (step === 'delta' && (lost = true)) } });
    const c2 = { ...runContext('r2'), lease: { assertHeld: () => { if (lost) throw new Error('lease lost'); } } };
    await s2.write({ stream: 'k', seq: 1, records: bars([1, 2], '2') }, c2);
    await expect(s2.commit(c2)).rejects.toThrow(/lease lost/);
    // The run's abort leaves its journal to the new holder too, rather than finish it itself.
    await s2.abort(c2);
    await s2.close();
    // The manifest is as the last whole commit left it: the paused writer did not publish its own.
    expect(await manifestOf(out)).toEqual(before);
    const s3 = sinkOf(out, klineSpec);
    await s3.recover(runContext('r3'));
    await expectLogMatchesManifest(out);
    expect((await manifestOf(out)).files.reduce((n, f) => n + f.rows, 0)).toBe(3);
    await s3.close();
  });

  it.each(steps)('a crash after the %s step: recover() finishes the commit, nothing logged twice', async (crashAt) => {
    const out = await lakes.fresh();
    const s1 = sinkOf(out, klineSpec);
    const c1 = runContext('r1');
    await s1.write({ stream: 'k', seq: 1, records: bars([0, 1], '1') }, c1);
    await s1.commit(c1);
    const s2 = sinkOf(out, klineSpec, {
      hooks: {
        afterStep(step) {
          if (step.split(':')[0] === crashAt) throw new Error(`killed after ${step}`);
        },
      },
    });
    const c2 = runContext('r2');
    await s2.write({ stream: 'k', seq: 1, records: bars([1, 2], '2') }, c2);
    await expect(s2.commit(c2)).rejects.toThrow(/killed after/);
    await s2.close();
    const s3 = sinkOf(out, klineSpec);
    await s3.recover(runContext('r3'));
    // Twice: a second recovery finds nothing to do.
    await s3.recover(runContext('r3'));
    await expectLogMatchesManifest(out);
    const log = await logLines(out);
    expect(log).toHaveLength(2);
    const adds = log.flat().filter((a) => a.add).map((a) => a.add!.path);
    expect(new Set(adds).size).toBe(adds.length);
    const copy = await here(out);
    const files = (await manifestOf(out)).files.map((f) => join(copy, 'kline', f.path));
    const rows = await duck(`SELECT epoch_ms(ts) - ${T0 * 1000} AS at, close::DOUBLE AS c FROM ${sql(files)} ORDER BY ts`);
    expect(rows.map((r) => [Number(r.at), r.c])).toEqual([[0, 1], [60_000, 2], [120_000, 2]]);
    expect(await lakes.keys(out, '_quotelake/staging')).toEqual([]);
  });

  /** A kline commit of run r2 killed after its Delta version was logged, before its manifest. */
  async function killedAfterDeltaVersion(out: string): Promise<void> {
    const s1 = sinkOf(out, klineSpec);
    await s1.write({ stream: 'k', seq: 1, records: bars([0, 1], '1') }, runContext('r1'));
    await s1.commit(runContext('r1'));
    const s2 = sinkOf(out, klineSpec, { hooks: { afterStep: (step) => { if (step === 'delta') throw new Error('killed after delta'); } } });
    await s2.write({ stream: 'k', seq: 1, records: bars([1, 2], '2') }, runContext('r2'));
    await expect(s2.commit(runContext('r2'))).rejects.toThrow(/killed after delta/);
    await s2.close();
  }

  it('a run of another pipeline on the output finishes the decided commit a killed run left, rather than delete its journal', async () => {
    const out = await lakes.fresh();
    await killedAfterDeltaVersion(out);
    const storage = lakes.storage(out) ?? localStorage(out);
    // inspect names the pending commit, and only reads.
    const info = await inspectOutput(out, join(out, '.state'), 0, undefined, lakes.storage(out));
    expect(info.pendingCommits).toEqual([{ dataset: 'kline', format: 'parquet', run: 'r2', files: expect.any(Number) }]);
    const files = info.pendingCommits[0]!.files;
    expect(renderInspect(info)).toContain(`  pending: a commit of kline (parquet, ${files} file${files === 1 ? '' : 's'}) that run r2 decided and did not finish; the next run or "quotelake compact" on this output finishes it`);
    // Its table disagrees with the log until the commit is finished: not a problem of the lake.
    expect(info.datasets.flatMap((d) => d.problems)).toEqual([]);
    expect((await repairLake(out, { ctx: runContext('repair-0'), dryRun: true, storage }))[0]!.logMismatches).toEqual([]);
    // What a halts (or any other) run does before it clears the shared staging folder.
    const done = await finishPendingCommits(storage, () => undefined);
    expect(done.finished.map((j) => [j.dataset, j.format, j.runId])).toEqual([['kline', 'parquet', 'r2']]);
    expect(done.undone).toEqual([]);
    await storage.deletePrefix('_quotelake/staging/');
    const s3 = sinkOf(out, klineSpec);
    await s3.recover(runContext('r3'));
    await expectLogMatchesManifest(out);
    expect((await manifestOf(out)).files.reduce((n, f) => n + f.rows, 0)).toBe(3);
  });

  it('a file the Delta log names is never swept as an orphan, even where the manifest lost it', async () => {
    const out = await lakes.fresh();
    await killedAfterDeltaVersion(out);
    const storage = lakes.storage(out) ?? localStorage(out);
    // What a run of another pipeline did before it finished others' commits: the journal deleted.
    await storage.deletePrefix('_quotelake/staging/');
    const warned: string[] = [];
    const ctx = { ...runContext('r3'), logger: { ...runContext('r3').logger, warn: (line: string) => void warned.push(line) } };
    const s3 = sinkOf(out, klineSpec);
    await s3.recover(ctx);
    const snapshot = await readDeltaSnapshot(storage, 'kline');
    for (const path of snapshot!.files.keys()) expect(await storage.exists(`kline/${path}`), path).toBe(true);
    expect(warned).toEqual([expect.stringMatching(/^kept \d+ files? of kline that its Delta log has live but its manifest does not list/)]);
    // The command to paste names this lake.
    expect(warned[0]).toContain(`: "quotelake repair --output ${storage.root} --dry-run" shows the table's log and manifest disagreeing`);
    // The repair that mends the log does not warn of the files it is about to mend, nor send the user to itself.
    warned.length = 0;
    const [repaired] = await repairLake(out, { ctx, dryRun: false, storage });
    expect(repaired!.logMismatches.length).toBeGreaterThan(0);
    expect(warned).toEqual([]);
  });

  it('repair makes the log agree with the manifest after a stranded commit (a file only the log has, one gone, one the log removed), and commits go on', async () => {
    const out = await lakes.fresh();
    await killedAfterDeltaVersion(out);
    const storage = lakes.storage(out) ?? localStorage(out);
    // As quotelake 0.1.0 left it: the journal deleted by another pipeline's run, one file swept.
    await storage.deletePrefix('_quotelake/staging/');
    // r2 merged r1's file: its version removed it and added r2's two, which the manifest never listed.
    const listed = (await manifestOf(out)).files.map((f) => f.path);
    const live = [...(await readDeltaSnapshot(storage, 'kline'))!.files.keys()];
    const stranded = live.filter((p) => !listed.includes(p)).sort();
    expect(stranded.length).toBeGreaterThanOrEqual(1);
    expect(listed.filter((p) => !live.includes(p))).toHaveLength(1);
    await storage.delete(`kline/${stranded[0]!}`);
    const ctx = runContext('repair-1');
    const looked = await repairLake(out, { ctx, dryRun: true, storage });
    const expected = [
      ...stranded.map((p, i) => ({ key: `kline/${p}`, problem: i === 0 ? 'live in the Delta log, missing from storage' : 'live in the Delta log, not in the manifest' })),
      { key: `kline/${listed[0]!}`, problem: 'in the manifest, removed from the Delta log' },
    ].sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(looked.map((r) => r.logMismatches)).toEqual([expected]);
    // inspect flags it (a problem: exit 1), where it saw nothing before.
    const problems = async () => (await inspectOutput(out, join(out, '.state'), 0, undefined, lakes.storage(out))).datasets.flatMap((d) => d.problems);
    expect(await problems()).toEqual([`kline: the Delta log and the manifest disagree on ${expected.length} files (a commit stranded half-way; Delta readers see other rows than quotelake): "quotelake repair --output ${out} --dry-run" lists them, --yes mends the log`]);
    // vacuum leaves such a table alone: it would delete the file the manifest lists and the log removed.
    const vacuumed = await vacuumLake(storage, { retentionMs: 0, now: Date.parse('2030-01-01T00:00:00Z'), dryRun: false, dataset: 'kline' });
    expect(vacuumed).toEqual([{ dataset: 'kline', deleted: [], kept: [], skipped: expect.stringMatching(/^its Delta log and its manifest disagree/) }]);
    await repairLake(out, { ctx, dryRun: false, storage });
    expect(await problems()).toEqual([]);
    await expectLogMatchesManifest(out);
    expect((await repairLake(out, { ctx, dryRun: true, storage }))[0]!.logMismatches).toEqual([]);
    // The rows of the stranded commit come again with the next run, and commit.
    const s4 = sinkOf(out, klineSpec);
    await s4.recover(runContext('r4'));
    await s4.write({ stream: 'k', seq: 1, records: bars([1, 2], '2') }, runContext('r4'));
    await s4.commit(runContext('r4'));
    await expectLogMatchesManifest(out);
    expect((await manifestOf(out)).files.reduce((n, f) => n + f.rows, 0)).toBe(3);
  });

  // A foreign version written by hand into the log folder, and a store that refuses a second create:
  // local only (s3rver ignores If-None-Match; S3 conflicts are tested against a mocked client).
  it.skipIf(backend === 's3')('a commit another writer made invalid fails with QL_DELTA_CONFLICT and leaves log, manifest and files as they were', async () => {
    const out = await lakes.fresh();
    const s1 = sinkOf(out, klineSpec);
    const c1 = runContext('r1');
    await s1.write({ stream: 'k', seq: 1, records: bars([0, 1], '1') }, c1);
    await s1.commit(c1);
    const [livePath] = [...(await replayJsonLog(join(await here(out), 'kline'))).live.keys()];
    const before = await manifestOf(out);
    // Another writer removes the same live file at version 1 while this merge is being planned.
    const s2 = sinkOf(out, klineSpec, {
      hooks: {
        afterStep(step) {
          if (!step.startsWith('add:')) return;
          const foreign = { remove: { path: livePath, deletionTimestamp: 1, dataChange: true } };
          return writeFile(join(out, 'kline/_delta_log/00000000000000000001.json'), JSON.stringify({ commitInfo: { timestamp: 1, operation: 'DELETE' } }) + '\n' + JSON.stringify(foreign) + '\n', { flag: 'wx' }).catch(() => undefined) as never;
        },
      },
    });
    const c2 = runContext('r2');
    await s2.write({ stream: 'k', seq: 1, records: bars([1, 2], '2') }, c2);
    const error = await s2.commit(c2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeltaConflictError);
    expect((error as DeltaConflictError).code).toBe('QL_DELTA_CONFLICT');
    expect((error as DeltaConflictError).hint).toContain(`"quotelake repair --output ${out} --dry-run"`);
    expect(await manifestOf(out)).toEqual(before);
    const onDisk = (await lakes.keys(out, 'kline')).filter((f) => f.endsWith('.parquet'));
    expect(onDisk).toEqual(before.files.map((f) => f.path));
    expect((await logLines(out)).length).toBe(2);
  });

  it.skipIf(backend === 's3')('a lost race to a harmless version (another writer\'s append) is re-read and the commit goes after it', async () => {
    const out = await lakes.fresh();
    const s1 = sinkOf(out, klineSpec);
    const c1 = runContext('r1');
    await s1.write({ stream: 'k', seq: 1, records: bars([0, 1], '1') }, c1);
    await s1.commit(c1);
    const foreign = 'interval=1m/year=2025/date=2025-11-20/part-other-00001.parquet';
    const s2 = sinkOf(out, klineSpec, {
      hooks: {
        afterStep(step) {
          if (!step.startsWith('add:')) return;
          const add = { add: { path: foreign, partitionValues: { interval: '1m', year: '2025', date: '2025-11-20' }, size: 1, modificationTime: 1, dataChange: true } };
          return writeFile(join(out, 'kline/_delta_log/00000000000000000001.json'), JSON.stringify({ commitInfo: { timestamp: 1, operation: 'WRITE' } }) + '\n' + JSON.stringify(add) + '\n', { flag: 'wx' }).catch(() => undefined) as never;
        },
      },
    });
    const c2 = runContext('r2');
    await s2.write({ stream: 'k', seq: 1, records: bars([5], '2') }, c2);
    await s2.commit(c2);
    const log = await logLines(out);
    expect(log).toHaveLength(3);
    const replayed = await replayJsonLog(join(await here(out), 'kline'));
    const manifest = (await manifestOf(out)).files.map((f) => f.path);
    expect([...replayed.live.keys()].sort()).toEqual([...manifest, foreign].sort());
  });

  it('compaction logs OPTIMIZE with dataChange false, and the log still replays to the manifest', async () => {
    const out = await lakes.fresh();
    for (const [i, m] of [0, 5, 10].entries()) {
      const s = sinkOf(out, klineSpec);
      const c = runContext(`r${i}`);
      // Disjoint minutes: three small files, no merge.
      await s.write({ stream: 'k', seq: 1, records: bars([m], '3') }, c);
      await s.commit(c);
    }
    // A run commit compacts small files on its own; write three files by hand-sized runs above, then compact.
    const ctx = runContext('compact-1');
    await compactLake(out, { ...storageOf(out), ctx, dryRun: false, retiredGraceMs: 0, maxRowsPerFile: 1_000_000 });
    const log = await logLines(out);
    const optimize = log.filter((v) => v[0]!.commitInfo!.operation === 'OPTIMIZE');
    for (const v of optimize) {
      for (const a of v) if (a.add || a.remove) expect((a.add ?? a.remove)!.dataChange).toBe(false);
    }
    await expectLogMatchesManifest(out);
    const copy = await here(out);
    const files = (await manifestOf(out)).files.map((f) => join(copy, 'kline', f.path));
    expect((await duck(`SELECT count(*)::INT n FROM ${sql(files)}`))[0]!.n).toBe(3);
  });

  it('checkpoints every 10 versions; a snapshot read from the checkpoint equals the JSON replay and the manifest', async () => {
    const out = await lakes.fresh();
    for (let i = 0; i < 12; i++) {
      const s = sinkOf(out, klineSpec);
      const c = runContext(`r${String(i).padStart(2, '0')}`);
      await s.write({ stream: 'k', seq: 1, records: bars([i * 2], String(i + 1)) }, c);
      await s.commit(c);
      await s.close();
    }
    const names = await lakes.keys(out, 'kline/_delta_log');
    expect(names.filter((n) => n.endsWith('.json')).length).toBe(12);
    expect(names).toContain('00000000000000000010.checkpoint.parquet');
    expect(JSON.parse(await readText(lakes, out, 'kline/_delta_log/_last_checkpoint'))).toMatchObject({ version: 10 });
    const live = await expectLogMatchesManifest(out);
    const snapshot = await readDeltaSnapshot(lakes.storage(out) ?? localStorage(out), 'kline');
    const copy = await here(out);
    expect(snapshot!.fromCheckpoint).toBe(10);
    expect([...snapshot!.files.keys()].sort()).toEqual([...live.keys()].sort());
    const ckpt = await duck(`SELECT count(add) AS adds, count(txn) AS txns FROM '${join(copy, 'kline/_delta_log/00000000000000000010.checkpoint.parquet')}'`);
    expect(Number(ckpt[0]!.txns)).toBe(1);
    expect(Number(ckpt[0]!.adds)).toBeGreaterThan(0);
    // The checkpoint is a .parquet file in the table folder: a `**` glob takes it for data (DuckDB
    // fails on its hive path); the README's glob for a Delta table starts at the partition folders.
    await expect(duck(`SELECT count(*) FROM read_parquet('${join(copy, 'kline/**/*.parquet')}', hive_partitioning = true)`)).rejects.toThrow(/_delta_log/);
    const globbed = await duck(`SELECT DISTINCT filename FROM read_parquet('${join(copy, 'kline/*=*/**/*.parquet')}', hive_partitioning = true, filename = true)`);
    expect(globbed.some((r) => String(r.filename).includes('_delta_log'))).toBe(false);
    expect(globbed.length).toBeGreaterThanOrEqual(live.size);
  });

  it('a dataset keeps its kind: delta over hive files, or hive over a Delta log, is a config error', async () => {
    const hive = await lakes.fresh();
    const s1 = sinkOf(hive, klineSpec, { table: 'hive' });
    const c1 = runContext('r1');
    await s1.write({ stream: 'k', seq: 1, records: bars([0], '1') }, c1);
    await s1.commit(c1);
    const s2 = sinkOf(hive, klineSpec, { table: 'delta' });
    await expect(s2.recover(runContext('r2'))).rejects.toThrow(ConfigError);
    const delta = await lakes.fresh();
    const s3 = sinkOf(delta, klineSpec, { table: 'delta' });
    await s3.write({ stream: 'k', seq: 1, records: bars([0], '1') }, c1);
    await s3.commit(c1);
    const s4 = sinkOf(delta, klineSpec, { table: 'hive' });
    await expect(s4.recover(runContext('r2'))).rejects.toThrow(/is a Delta table/);
  });
});
