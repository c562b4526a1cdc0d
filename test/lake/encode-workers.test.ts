/**
 * The parquet sink with its files encoded in worker threads: the same files as on the calling
 * thread, bounded files in flight, errors and dead workers surface as SinkErrors, and neither
 * abort() nor close() leaves a file or a thread behind.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { KlineRow } from '../../src/core/records.js';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import { SinkError } from '../../src/core/errors.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { parquetPool } from '../../src/lake/parquet/parquet-pool.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { EncodePool } from '../../src/lake/encode/encode-pool.js';
import type { Manifest } from '../../src/lake/commit/manifest.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import type { StagedFileWriter } from '../../src/lake/encode/staged-file-writer.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { duck, runContext, tempDir } from '../sinks/helpers.js';
import { BACKENDS, useLakesOf, type Backend, type TestLakes } from './test-lakes.js';

const encoder = parquetEncoder({ rowGroupRows: 131072 });
const klineWorkerData = { dataset: 'kline' as const, decimal: DEFAULT_DECIMAL, rowGroupRows: 131072 };

/** The lakes of the backend whose describe block runs now (the blocks of a file run one after another). */
let lakes: TestLakes;
const onBackend = (backend: Backend): void => useLakesOf(backend, (mine) => (lakes = mine));

/** A local folder with the lake's objects, for reading files back (a download on S3). */
const here = (out: string): Promise<string> => lakes.localCopy(out);

const opened: PartitionedSink<KlineRow>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function sink(out: string, writer: StagedFileWriter | undefined, limits: { maxRowsPerFile?: number; maxBufferedRows?: number } = {}) {
  const s = new PartitionedSink<KlineRow>({
    outputDir: out,
    spec: klineSpec,
    encoder,
    decimal: DEFAULT_DECIMAL,
    maxRowsPerFile: limits.maxRowsPerFile ?? 5000,
    maxBufferedRows: limits.maxBufferedRows ?? 5500,
    maxBufferedBytes: 1 << 30,
    writer,
    ...(lakes?.storage(out) ? { storage: lakes.storage(out)! } : {}),
  });
  opened.push(s);
  return s;
}

/** 2025-11-19T00:00:00Z, in seconds. */
const DAY0 = T0 - 7 * 3600;
const inDay = (r: KlineRow, day: number) => r.ts >= (DAY0 + day * 86400) * 1000 && r.ts < (DAY0 + (day + 1) * 86400) * 1000;

/**
 * 4 codes x 3 days of 1m bars, time-major: partitions of 5,760 rows, so files are cut by
 * maxRowsPerFile (5,000), by the memory bound (5,500) and at the end; the 5,000-row files carry
 * column buffers large enough to be moved to the worker rather than copied. Built once (ten tests
 * take them) and frozen: a sink that changed a row it was given would throw. Each call has its own array.
 */
function threeDays(): KlineRow[] {
  threeDaysRows ??= buildThreeDays().map((r) => Object.freeze(r));
  return [...threeDaysRows];
}
let threeDaysRows: readonly KlineRow[] | undefined;

function buildThreeDays(): KlineRow[] {
  const raws = [];
  for (let m = 0; m < 3 * 1440; m++) {
    for (const code of ['BTCUSDT', 'SHIBUSDT', 'ÄPFEL.DE', '700.HK']) {
      const close = code === 'SHIBUSDT' ? `0.0000187${String(m).padStart(5, '0')}` : `${91000 + m}.${m % 100}`;
      raws.push(rawKline(code, '1m', DAY0 + 60 * m, close, m % 11 !== 0, `${m + 1000}12345678901234.123456789012345678`));
    }
  }
  return klineRows(raws);
}

async function manifest(out: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as Manifest;
}

async function readBack(out: string): Promise<string[]> {
  const rows: KlineRow[] = [];
  for (const f of (await manifest(out)).files) rows.push(...klineSpec.fromTable(encoder.decode(await readFile(join(out, 'kline', f.path))), posix.dirname(f.path)));
  return rows.map(key).sort();
}

/**
 * The files of two trees hold the same rows in the same order and the same metadata, and the
 * manifest's checksums are right. (Not byte for byte: parquet-wasm writes the key-value metadata in
 * hash-map order, which differs between WASM instances.)
 */
async function expectSameFiles(inWorker: string, inThread: string): Promise<void> {
  const [mw, mt] = [await manifest(inWorker), await manifest(inThread)];
  const described = (m: Manifest) => m.files.map(({ path, rows, bytes, ranges }) => ({ path, rows, bytes, ranges }));
  expect(described(mw)).toEqual(described(mt));
  const kv = (file: string) => duck(`select key::varchar k, value::varchar v from parquet_kv_metadata('${file}') order by k`);
  for (const f of mw.files) {
    const [w, t] = [join(inWorker, 'kline', f.path), join(inThread, 'kline', f.path)];
    const bytes = await readFile(w);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
    expect(klineSpec.fromTable(encoder.decode(bytes), posix.dirname(f.path)).map(key)).toEqual(klineSpec.fromTable(encoder.decode(await readFile(t)), posix.dirname(f.path)).map(key));
    expect(await kv(w)).toEqual(await kv(t));
  }
}

const key = (r: KlineRow) => [r.code, r.interval, r.ts, r.open, r.high, r.low, r.close, r.volume, r.turnover, r.final].join(' ');

async function writeRun(out: string, writer: StagedFileWriter | undefined, runs: KlineRow[][]): Promise<void> {
  for (const [i, rows] of runs.entries()) {
    const s = sink(out, i === 0 ? writer : (writer && parquetPool(1, klineWorkerData)));
    const ctx = runContext(`r${i}`);
    for (let k = 0; k < rows.length; k += 1000) await s.write({ stream: 'k', seq: k, records: rows.slice(k, k + 1000) }, ctx);
    await s.commit(ctx);
  }
}

describe.each(BACKENDS)('parquet files encoded in worker threads (%s)', (backend) => {
  onBackend(backend);
  it('are the files the calling thread writes, with every value back', async () => {
    const rows = threeDays();
    const [thread, worker] = [await lakes.fresh(), await lakes.fresh()];
    await writeRun(thread, undefined, [rows]);
    await writeRun(worker, parquetPool(1, klineWorkerData), [rows]);
    const [inThread, inWorker] = [await here(thread), await here(worker)];
    const files = (await manifest(inWorker)).files;
    expect(files.length).toBeGreaterThan(3);
    expect(files.reduce((n, f) => n + f.rows, 0)).toBe(17_280);
    expect(Math.max(...files.map((f) => f.rows))).toBe(5000);
    await expectSameFiles(inWorker, inThread);
    expect(await readBack(inWorker)).toEqual(rows.map(key).sort());
    const totals = (dir: string) => duck(`select count(*)::int n, sum(close)::varchar c, max(turnover)::varchar t, sum(final::int)::int f from read_parquet('${dir}/kline/**/*.parquet')`);
    expect(await totals(inWorker)).toEqual(await totals(inThread));
    expect((await totals(inWorker))[0]).toMatchObject({ n: 17_280, t: '531912345678901234.123456789012345678', f: 17_280 - Math.ceil(4320 / 11) * 4 });
  });

  it('also for rows that go through de-duplication and a merge with live files', async () => {
    const rows = threeDays();
    // Run 1 writes the first day twice (forming, then final): the de-duplication path. Run 2
    // rewrites day 2 with other closes: a merge with the live files.
    const first = [...rows.filter((r) => inDay(r, 0)).map((r) => ({ ...r, final: false, close: '1' })), ...rows];
    const second = rows.filter((r) => inDay(r, 1)).map((r) => ({ ...r, close: '2.5' }));
    const [thread, worker] = [await lakes.fresh(), await lakes.fresh()];
    await writeRun(thread, undefined, [first, second]);
    await writeRun(worker, parquetPool(1, klineWorkerData), [first, second]);
    const [inThread, inWorker] = [await here(thread), await here(worker)];
    await expectSameFiles(inWorker, inThread);
    const expected = rows.map((r) => (inDay(r, 1) ? { ...r, close: '2.5' } : r));
    expect(await readBack(inWorker)).toEqual(expected.map(key).sort());
  });

  it("take a backward walk's partitions as stretches of the builder's columns: the calling thread's files, in key order", async () => {
    // Pages of 400 bars, newest first, each ascending, two codes a page turn: two days' partitions.
    const byCode = new Map<string, KlineRow[]>();
    for (const r of threeDays().filter((r) => !inDay(r, 2) && (r.code === 'BTCUSDT' || r.code === 'SHIBUSDT'))) {
      if (!byCode.has(r.code)) byCode.set(r.code, []);
      byCode.get(r.code)!.push(r);
    }
    const pages: KlineRow[] = [];
    for (let end = 2880; end > 0; end -= 400) for (const bars of byCode.values()) pages.push(...bars.slice(Math.max(0, end - 400), end));
    const jobs: (Int32Array | undefined)[] = [];
    const recording = (writer: StagedFileWriter): StagedFileWriter => ({ ...writer, write: (job) => (jobs.push(job.stretches), writer.write(job)) });
    const [thread, worker] = [await lakes.fresh(), await lakes.fresh()];
    await writeRun(thread, undefined, [pages]);
    await writeRun(worker, recording(parquetPool(1, klineWorkerData)), [pages]);
    // Each day's file names its rows as stretches: 2 codes x 5 pages that meet the day.
    expect(jobs.filter((j) => j !== undefined).length).toBeGreaterThan(0);
    for (const stretches of jobs.filter((j) => j !== undefined)) expect(stretches!.length / 2).toBeLessThanOrEqual(12);
    const [inThread, inWorker] = [await here(thread), await here(worker)];
    await expectSameFiles(inWorker, inThread);
    expect(await readBack(inWorker)).toEqual(pages.map(key).sort());
    const byKey = (a: KlineRow, b: KlineRow) => (a.code === b.code ? a.ts - b.ts : a.code < b.code ? -1 : 1);
    for (const f of (await manifest(inWorker)).files) {
      const inFile = klineSpec.fromTable(encoder.decode(await readFile(join(inWorker, 'kline', f.path))), posix.dirname(f.path));
      expect(inFile.map(key)).toEqual([...inFile].sort(byKey).map(key));
    }
  });

  it('stay within two files in flight per worker', async () => {
    const pool = parquetPool(1, klineWorkerData);
    let inFlight = 0;
    let most = 0;
    const counting: StagedFileWriter = {
      warm: () => pool.warm(),
      ready: () => pool.ready(),
      write(job) {
        most = Math.max(most, ++inFlight);
        return pool.write(job).finally(() => inFlight--);
      },
      close: () => pool.close(),
    };
    const out = await lakes.fresh();
    await writeRun(out, counting, [threeDays()]);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
    expect(inFlight).toBe(0);
  });

  it('abort() waits for the files in flight, then leaves nothing behind', async () => {
    const pool = parquetPool(1, klineWorkerData);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let inFlight = 0;
    // Files complete only once the gate opens: abort() must wait for them.
    const gated: StagedFileWriter = {
      warm: () => pool.warm(),
      ready: () => pool.ready(),
      write(job) {
        inFlight++;
        const written = pool.write(job);
        return gate.then(() => written).finally(() => inFlight--);
      },
      close: () => pool.close(),
    };
    const out = await lakes.fresh();
    const s = sink(out, gated);
    const ctx = runContext('r1');
    await s.write({ stream: 'k', seq: 1, records: threeDays() }, ctx);
    expect(inFlight).toBeGreaterThan(0);
    let aborted = false;
    const aborting = s.abort(ctx).then(() => (aborted = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const abortedEarly = aborted;
    open();
    await aborting;
    expect(abortedEarly).toBe(false);
    expect(inFlight).toBe(0);
    expect(await lakes.keys(out)).toEqual([]);
  });

  it('an error inside the worker becomes a SinkError naming the partition', async () => {
    // A worker told the wrong dataset refuses kline columns while it rebuilds them.
    const out = await lakes.fresh();
    const s = sink(out, parquetPool(1, { ...klineWorkerData, dataset: 'trade' }));
    const ctx = runContext('r1');
    await s.write({ stream: 'k', seq: 1, records: klineRows([rawKline('BTCUSDT', '1m', T0, '1.5')]) }, ctx);
    const failed = await s.commit(ctx).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SinkError);
    expect(failed).toMatchObject({ code: 'QL_SINK_WRITE', message: 'parquet: cannot stage 1 kline rows for interval=1m/year=2025/date=2025-11-19: expected 8 columns, got 9' });
    // The sink stays failed until aborted; abort() leaves nothing.
    await expect(s.write({ stream: 'k', seq: 2, records: [] }, ctx)).rejects.toBe(failed);
    await s.abort(ctx);
    expect(await lakes.keys(out)).toEqual([]);
  });

  // A file in the way of the lake's staging folder: local only (on S3 staged files are written in a scratch folder).
  it.skipIf(backend === 's3').each([
    ['in a worker', 1],
    ['on the calling thread', 0],
  ])('a staged file that cannot be written (%s) is a SinkError naming the partition', async (_mode, workers) => {
    const out = await tempDir();
    await writeFile(join(out, '_quotelake'), 'in the way');
    const s = sink(out, workers > 0 ? parquetPool(1, klineWorkerData) : undefined);
    const ctx = runContext('r1');
    await s.write({ stream: 'k', seq: 1, records: klineRows([rawKline('BTCUSDT', '1m', T0, '1.5')]) }, ctx);
    const failed = await s.flush(ctx).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SinkError);
    expect((failed as Error).message).toMatch(/^parquet: cannot stage 1 kline rows for interval=1m\/year=2025\/date=2025-11-19: ENOTDIR/);
  });

  it('a worker that dies fails its files with a SinkError instead of hanging', { timeout: 10_000 }, async () => {
    const out = await lakes.fresh();
    const dying = new EncodePool({ url: new URL('../fixtures/dying-encode-worker.mjs', import.meta.url), workers: 1 });
    const s = sink(out, dying);
    const ctx = runContext('r1');
    await s.write({ stream: 'k', seq: 1, records: klineRows([rawKline('BTCUSDT', '1m', T0, '1.5'), rawKline('BTCUSDT', '1d', T0, '2')]) }, ctx);
    const failed = await s.commit(ctx).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SinkError);
    expect((failed as Error).message).toMatch(/^parquet: cannot stage 1 kline rows for interval=1(m|d)\/year=2025\/date=[^:]+: encode worker stopped \(exit code 7\)$/);
    await s.abort(ctx);
    expect(await lakes.keys(out)).toEqual([]);
  });
});

describe('encode worker threads never keep the process alive', () => {
  const script = `
    import { parquetSink } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'dist/sinks/parquet/index.js')).href)};
    import { PassThrough } from 'node:stream';
    const { OUT: outputDir, END: end } = process.env;
    const env = { outputDir, stateDir: outputDir + '/.state', stdout: new PassThrough(), dataset: 'kline' };
    const sink = parquetSink.create(parquetSink.configSchema.parse({ encodeWorkers: 2, encodeWorkersAfterRows: 0, maxBufferedRows: 2000 }), env);
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const ctx = { runId: 'child', signal: new AbortController().signal, logger, events: { request() {}, rows() {} }, clock: { now: () => Date.now() } };
    const records = [];
    for (let i = 0; i < 20000; i++) {
      records.push({ code: 'C' + (i % 7), interval: '1m', ts: Date.UTC(2026, 0, 1) + 60000 * i, open: '1.5', high: '2', low: '1', close: '1.25', volume: String(i), turnover: '3.5', final: true });
    }
    await sink.write({ stream: 'k', seq: 1, records }, ctx);
    if (end.startsWith('abort')) {
      await sink.abort(ctx); // files are still in flight here
      if (end === 'abort') await sink.close();
    } else {
      await sink.commit(ctx);
      if (end === 'close') await sink.close();
    }
    console.log('done');
  `;

  // Without close, the sink still holds its lease on the pool: only unref'd workers let the process end.
  it.each(['close', 'abort', 'commit without close', 'abort without close'])('after %s, the process exits by itself', { timeout: 30_000 }, async (end) => {
    const out = await tempDir();
    const started = Date.now();
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, OUT: out, END: end }, timeout: 20_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? (child.exitCode ?? -1) : 0, stdout, stderr }),
      );
    });
    expect(result).toEqual({ code: 0, stdout: 'done\n', stderr: '' });
    expect(Date.now() - started).toBeLessThan(20_000);
    const left = await readdir(out);
    expect(left).toEqual(end.startsWith('abort') ? [] : ['_quotelake', 'kline']);
  });
});
