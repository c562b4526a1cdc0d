/**
 * Compaction: the file bound after resumed runs, values unchanged (read back with DuckDB through
 * the manifest, as a reader following it does), retired files kept for the grace period, `compact`
 * over a lake (dry run changes nothing), crashes during a compacting commit, and a concurrent
 * DuckDB reader that never sees an error, a partial file, a doubled or a missing row.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { RunContext } from '../../src/core/component.js';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { KlineRow } from '../../src/core/records.js';
import type { RollForwardHooks } from '../../src/lake/commit/commit-journal.js';
import type { Manifest } from '../../src/lake/commit/manifest.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { compactLake } from '../../src/lake/compact-lake.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import type { TableEncoder } from '../../src/lake/encode/table-encoder.js';
import { useDuckArrays } from '../helpers/duck-arrays.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext, tempDir } from '../sinks/helpers.js';
import { BACKENDS, readText, useLakesOf, type Backend, type TestLakes } from './test-lakes.js';

const encoder = parquetEncoder({ rowGroupRows: 131072 });
const CODES = ['BTCUSDT', 'ETHUSDT', 'XRPUSDT'];
/** 2025-11-19T00:00:00Z: minute m of the test is T_DAY + 60 m (two whole UTC days = 2880 minutes). */
const T_DAY = T0 - (T0 % 86400);

/** The lakes of the backend whose describe block runs now (the blocks of a file run one after another). */
let lakes: TestLakes;
const onBackend = (backend: Backend): void => useLakesOf(backend, (mine) => (lakes = mine));

/** The lake's storage for a sink or compactLake: none on the local backend (its default). */
const storageOf = (out: string) => {
  const storage = lakes.storage(out);
  return storage === undefined ? {} : { storage };
};

const opened: PartitionedSink<KlineRow>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

interface SinkOptions {
  encoder?: TableEncoder;
  maxRowsPerFile?: number;
  maxBufferedRows?: number;
  retiredGraceMs?: number;
  hooks?: RollForwardHooks;
}

function sink(out: string, o: SinkOptions = {}): PartitionedSink<KlineRow> {
  const s = new PartitionedSink<KlineRow>({
    outputDir: out,
    spec: klineSpec,
    encoder: o.encoder ?? encoder,
    decimal: DEFAULT_DECIMAL,
    maxRowsPerFile: o.maxRowsPerFile ?? 1_000_000,
    maxBufferedRows: o.maxBufferedRows ?? 200_000,
    maxBufferedBytes: 1 << 30,
    retiredGraceMs: o.retiredGraceMs,
    hooks: o.hooks,
    ...storageOf(out),
  });
  opened.push(s);
  return s;
}

/** Bars of every code for minutes [from, to); the close encodes the minute and a version. */
function minutes(from: number, to: number, version = 0, final = true): KlineRow[] {
  const raw = [];
  for (const code of CODES) for (let m = from; m < to; m++) raw.push(rawKline(code, '1m', T_DAY + 60 * m, `${m}.${version}`, final));
  return klineRows(raw);
}

function ctxAt(runId: string, clock: ManualClock): RunContext {
  return { ...runContext(runId), clock };
}

async function manifestOf(out: string): Promise<Manifest> {
  return JSON.parse(await readText(lakes, out, '_quotelake/manifests/kline.parquet.json')) as Manifest;
}

async function dataFiles(out: string): Promise<string[]> {
  return (await lakes.keys(out, 'kline')).filter((e) => e.endsWith('.parquet')).sort();
}

const query = useDuckArrays();

/**
 * The files the manifest lists, as read_parquet's list: what a reader following the manifest opens
 * (on S3 downloaded first, keeping their keys: DuckDB's httpfs is not installed here).
 */
async function listed(out: string, m: Manifest): Promise<string> {
  const keys = m.files.map((f) => `kline/${f.path}`);
  let dir = out;
  if (lakes.storage(out) !== undefined) {
    dir = await tempDir('ql-s3-read-');
    for (const key of keys) {
      await mkdir(dirname(join(dir, key)), { recursive: true });
      await writeFile(join(dir, key), await lakes.read(out, key));
    }
  }
  return `read_parquet([${keys.map((k) => `'${join(dir, k)}'`).join(', ')}], hive_partitioning = true)`;
}

/** Every row as `code minute close final`, in key order. */
async function readBack(out: string): Promise<string[]> {
  const m = await manifestOf(out);
  const rows = await query(`SELECT code, epoch_ms(ts)::VARCHAR, close::VARCHAR, final::VARCHAR FROM ${await listed(out, m)} ORDER BY code, ts`);
  return rows.map(([code, ts, close, final]) => `${String(code)} ${(Number(ts) / 1000 - T_DAY) / 60} ${String(close)} ${String(final)}`);
}

function expected(lastMinute: number, versionOf: (m: number) => number = () => 0): string[] {
  const out: string[] = [];
  for (const code of CODES) for (let m = 0; m < lastMinute; m++) out.push(`${code} ${m} ${m}.${versionOf(m)}00000000000000000 true`);
  return out;
}

/** Files per partition of the manifest, against ceil(rows / target). */
async function partitionsOverBound(out: string, target: number): Promise<string[]> {
  const m = await manifestOf(out);
  const by = new Map<string, { files: number; rows: number }>();
  for (const f of m.files) {
    const p = f.path.slice(0, f.path.lastIndexOf('/'));
    const e = by.get(p) ?? { files: 0, rows: 0 };
    e.files++;
    e.rows += f.rows;
    by.set(p, e);
  }
  return [...by].filter(([, e]) => e.files > Math.max(1, Math.ceil(e.rows / target))).map(([p, e]) => `${p}: ${e.files} files, ${e.rows} rows`);
}

describe.each(BACKENDS)('compaction at commit (%s)', (backend) => {
  onBackend(backend);
  // The bound is the same code on both backends: S3 runs the case that cuts and rewrites the most files.
  it.each([
    ['one file per day (target = maxRowsPerFile)', { maxRowsPerFile: 100_000 }, 100_000],
    ['files of maxRowsPerFile rows', { maxRowsPerFile: 1000 }, 1000],
    ['memory-bounded: files of maxBufferedRows rows', { maxRowsPerFile: 100_000, maxBufferedRows: 500 }, 500],
  ].filter(([name]) => backend === 'local' || name === 'files of maxRowsPerFile rows') as [string, SinkOptions, number][])('resumed runs leave no partition over ceil(rows / target): %s', async (_name, options, target) => {
    const out = await lakes.fresh();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    // 16 runs of 3 hours each over two days, each re-fetching its predecessor's last (forming) bar,
    // committing twice (a checkpointed run commits as it goes).
    for (let run = 0; run < 16; run++) {
      const s = sink(out, options);
      const ctx = ctxAt(`r${String(run).padStart(2, '0')}`, clock);
      const from = run * 180;
      await s.write({ stream: 'k', seq: 1, records: minutes(Math.max(0, from - 1), from + 90, 1) }, ctx);
      await s.commit(ctx);
      await s.write({ stream: 'k', seq: 2, records: [...minutes(from + 90, from + 179, 1), ...minutes(from + 179, from + 180, 1, false)] }, ctx);
      await s.commit(ctx);
      clock.set(clock.now() + 60_000);
      expect(await partitionsOverBound(out, target)).toEqual([]);
    }
    const rows = await readBack(out);
    const want = expected(2880, () => 1);
    // The last run's last bar stays forming.
    for (const code of CODES) want[want.indexOf(`${code} 2879 2879.100000000000000000 true`)] = `${code} 2879 2879.100000000000000000 false`;
    expect(rows.length).toBe(want.length);
    expect(rows).toEqual(want);
    // Nothing on disk but the live and the retired files.
    const m = await manifestOf(out);
    expect(await dataFiles(out)).toEqual([...m.files, ...m.retired].map((f) => f.path).sort());
  });

  it('a partition compacted into one file holds its rows in key order, whatever order its runs wrote them in', async () => {
    const out = await lakes.fresh();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    // Three runs of a minute updater: each file holds every code for the next 20 minutes.
    for (let run = 0; run < 3; run++) {
      const s = sink(out, { maxRowsPerFile: 100_000 });
      const ctx = ctxAt(`u${run}`, clock);
      await s.write({ stream: 'k', seq: 1, records: minutes(run * 20, run * 20 + 20) }, ctx);
      await s.commit(ctx);
    }
    const m = await manifestOf(out);
    expect(m.files).toHaveLength(1);
    const file = await listed(out, m);
    const inFile = await query(`SELECT code, (epoch_ms(ts) / 1000 - ${T_DAY}) // 60 FROM ${file.replace('hive_partitioning = true', 'hive_partitioning = true, file_row_number = true')} ORDER BY file_row_number`);
    const keyOrder = CODES.flatMap((code) => Array.from({ length: 60 }, (_, minute) => [code, minute]));
    expect(inFile.map(([code, minute]) => [code, Number(minute)])).toEqual(keyOrder);
    expect(m.files[0]!.times).toEqual(Object.fromEntries(CODES.map((code) => [code, [[(T_DAY + 0) * 1000, 60_000, 60]]])));
  });

  it('arrow files are cut at the target the same way (sliced batches), values unchanged', async () => {
    const out = await lakes.fresh();
    const arrow = arrowEncoder();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    for (let run = 0; run < 5; run++) {
      const s = sink(out, { encoder: arrow, maxRowsPerFile: 400 });
      const ctx = ctxAt(`r${run}`, clock);
      await s.write({ stream: 'k', seq: 1, records: minutes(run * 70, run * 70 + 70) }, ctx);
      await s.commit(ctx);
    }
    const m = JSON.parse(await readText(lakes, out, '_quotelake/manifests/kline.arrow.json')) as Manifest;
    expect(m.files.map((f) => f.rows)).toEqual([400, 400, 250]);
    const rows: string[] = [];
    for (const f of m.files) {
      const got = klineSpec.fromTable(arrow.decode(await lakes.read(out, `kline/${f.path}`)), dirname(f.path));
      // Each file's manifest ranges are exactly its rows' keys.
      for (const code of CODES) {
        const ts = got.filter((r) => r.code === code).map((r) => r.ts);
        if (ts.length > 0) expect(f.ranges[code]).toEqual([Math.min(...ts), Math.max(...ts)]);
      }
      rows.push(...got.map((r) => `${r.code} ${(r.ts / 1000 - T_DAY) / 60} ${r.close}`));
    }
    expect(rows.sort()).toEqual(CODES.flatMap((code) => Array.from({ length: 350 }, (_, m) => `${code} ${m} ${m}`)).sort());
  });

  it('keeps replaced files for the grace period, then a later commit deletes them', async () => {
    const out = await lakes.fresh();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    const grace = 300_000;
    const c1 = ctxAt('r1', clock);
    const s1 = sink(out, { retiredGraceMs: grace });
    await s1.write({ stream: 'k', seq: 1, records: minutes(0, 60) }, c1);
    await s1.commit(c1);
    const first = (await manifestOf(out)).files.map((f) => f.path);
    clock.set(clock.now() + 1000);
    const c2 = ctxAt('r2', clock);
    const s2 = sink(out, { retiredGraceMs: grace });
    await s2.write({ stream: 'k', seq: 1, records: minutes(60, 120) }, c2);
    await s2.commit(c2);
    let m = await manifestOf(out);
    expect(m.files.length).toBe(1);
    expect(m.retired).toEqual([{ path: first[0], rows: 180, bytes: expect.any(Number), retiredAt: new Date(clock.now()).toISOString() }]);
    // Still within the grace: a commit with nothing to write keeps it.
    clock.set(clock.now() + grace - 1);
    await sink(out, { retiredGraceMs: grace }).commit(ctxAt('r3', clock));
    expect((await dataFiles(out)).length).toBe(2);
    // Past the grace: the manifest drops it, then the file goes.
    clock.set(clock.now() + 1);
    await sink(out, { retiredGraceMs: grace }).commit(ctxAt('r4', clock));
    m = await manifestOf(out);
    expect(m.retired).toEqual([]);
    expect(await dataFiles(out)).toEqual(m.files.map((f) => f.path));
    expect(await readBack(out)).toEqual(expected(120));
  });

  it.each(['add:0', 'manifest', 'journal'])('a crash after step %s of a compacting commit leaves a consistent lake', async (step) => {
    const out = await lakes.fresh();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    for (let run = 0; run < 3; run++) {
      const c = ctxAt(`r${run}`, clock);
      // A 250-row target: the runs leave four files (the partition within its bound of four).
      const s = sink(out, { maxRowsPerFile: 250 });
      await s.write({ stream: 'k', seq: 1, records: minutes(run * 100, run * 100 + 100) }, c);
      await s.commit(c);
    }
    const before = await manifestOf(out);
    const s = sink(out, {
      maxRowsPerFile: 2000,
      hooks: {
        afterStep(name) {
          if (name.split(':')[0] === step.split(':')[0]) throw new Error('simulated crash');
        },
      },
    });
    const c = ctxAt('r9', clock);
    await s.write({ stream: 'k', seq: 1, records: minutes(300, 400) }, c);
    await expect(s.commit(c)).rejects.toThrow('commit failed');
    // Whatever a reader of the manifest sees now is complete: the previous snapshot or the new one.
    const now = await manifestOf(out);
    for (const f of [...now.files, ...(now.retired ?? [])]) expect((await lakes.read(out, `kline/${f.path}`)).byteLength).toBe(f.bytes);
    expect([300, 400]).toContain(now.files.reduce((n, f) => n + f.rows, 0) / 3);
    const logged: unknown[] = [];
    await sink(out, { maxRowsPerFile: 2000 }).recover({ ...c, logger: { ...c.logger, info: (_m: string, f?: Record<string, unknown>) => void logged.push(f) } });
    // An operator is told what recovery did: the journal replayed (while it was still there).
    if (step !== 'journal') expect(logged).toContainEqual(expect.objectContaining({ event: 'recovery', action: 'journal-replayed', dataset: 'kline', journalRun: 'r9' }));
    const m = await manifestOf(out);
    // The commit was decided once its journal was written: recover() finished it, compaction included.
    expect(before.files.length).toBe(4);
    expect(m.files.length).toBe(1);
    expect(m.retired.map((f) => f.path).sort()).toEqual([...before.retired, ...before.files].map((f) => f.path).sort());
    expect(await readBack(out)).toEqual(expected(400));
    expect(await dataFiles(out)).toEqual([...m.files, ...m.retired].map((f) => f.path).sort());
    expect(await lakes.top(out)).toEqual(['_quotelake', 'kline']);
  });
});

describe.each(BACKENDS)('quotelake compact (compactLake, %s)', (backend) => {
  onBackend(backend);
  /** A lake of many small files: commits with a 180-row target leave files of 180 rows (30 over two days). */
  async function smallFileLake(): Promise<string> {
    const out = await lakes.fresh();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    for (let run = 0; run < 6; run++) {
      const c = ctxAt(`r${run}`, clock);
      const s = sink(out, { maxRowsPerFile: 180 });
      await s.write({ stream: 'k', seq: 1, records: minutes(run * 300, run * 300 + 300) }, c);
      await s.commit(c);
    }
    return out;
  }

  async function snapshot(out: string): Promise<string> {
    return JSON.stringify([await lakes.keys(out), await readText(lakes, out, '_quotelake/manifests/kline.parquet.json')]);
  }

  it('--dry-run prints the plan and changes nothing; compact then meets it, values unchanged', async () => {
    const out = await smallFileLake();
    const before = await manifestOf(out);
    expect(before.files.length).toBe(1800 * 3 / 180);
    const tree = await snapshot(out);
    const clock = new ManualClock('2026-11-22T00:00:00Z');
    const plan = await compactLake(out, { ...storageOf(out), ctx: ctxAt('compact-1', clock), dryRun: true, retiredGraceMs: 300_000 });
    expect(await snapshot(out)).toBe(tree);
    expect(plan).toEqual([
      expect.objectContaining({ dataset: 'kline', format: 'parquet', partitions: 2, compactedPartitions: 2, filesBefore: 30, filesAfter: 2, rows: 5400, purged: 0 }),
    ]);
    const done = await compactLake(out, { ...storageOf(out), ctx: ctxAt('compact-2', clock), dryRun: false, retiredGraceMs: 300_000 });
    expect(done).toEqual([expect.objectContaining({ filesBefore: 30, filesAfter: 2, rows: 5400, compactedPartitions: 2 })]);
    const after = await manifestOf(out);
    expect(after.files.map((f) => f.rows)).toEqual([1440 * 3, 360 * 3]);
    expect(after.retired.length).toBe(30);
    expect(await readBack(out)).toEqual(expected(1800));
    // A second pass has nothing to compact; past the grace it deletes the retired files.
    clock.set(clock.now() + 300_000);
    const again = await compactLake(out, { ...storageOf(out), ctx: ctxAt('compact-3', clock), dryRun: false, retiredGraceMs: 300_000 });
    expect(again).toEqual([expect.objectContaining({ filesBefore: 2, filesAfter: 2, compactedPartitions: 0, purged: 30 })]);
    expect(await dataFiles(out)).toEqual((await manifestOf(out)).files.map((f) => f.path).sort());
    expect(await lakes.top(out)).toEqual(['_quotelake', 'kline']);
  });

  it('a stop (the run\'s signal) between partitions commits the partitions done and leaves the rest; a later compact finishes', async () => {
    const out = await smallFileLake();
    const clock = new ManualClock('2026-11-22T00:00:00Z');
    const controller = new AbortController();
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const note = (m: string, f?: Record<string, unknown>) => void lines.push([m, f]);
    // The signal arrives while the first partition is compacted (its debug line is the cue).
    const logger = { debug: (m: string, f?: Record<string, unknown>) => (note(m, f), f?.event === 'compaction' && controller.abort()), info: note, warn: note, error: note };
    const ctx: RunContext = { ...ctxAt('compact-stop', clock), signal: controller.signal, logger };
    const stopped = await compactLake(out, { ...storageOf(out), ctx, dryRun: false, retiredGraceMs: 0 });
    expect(stopped).toEqual([expect.objectContaining({ partitions: 2, compactedPartitions: 1, filesBefore: 30, filesAfter: 1 + 6, stopped: true })]);
    expect(lines.find(([, f]) => f?.event === 'commit')).toEqual(['compacted', expect.objectContaining({ operation: 'compact', dataset: 'kline', partitions: 1, files: 1, retired: 24, rows: 4320, stopped: true })]);
    expect(await dataFiles(out)).toEqual((await manifestOf(out)).files.map((f) => f.path).sort());
    expect(await readBack(out)).toEqual(expected(1800));
    const rest = await compactLake(out, { ...storageOf(out), ctx: ctxAt('compact-rest', clock), dryRun: false, retiredGraceMs: 0 });
    expect(rest).toEqual([expect.objectContaining({ compactedPartitions: 1, filesBefore: 7, filesAfter: 2, stopped: false })]);
    expect(await readBack(out)).toEqual(expected(1800));
  });

  it('keeps each file\'s metadata merged (source endpoints united)', async () => {
    const out = await lakes.fresh();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    const c1 = ctxAt('r1', clock);
    const s1 = sink(out, { maxRowsPerFile: 3 });
    await s1.write({ stream: 'k', seq: 1, records: minutes(0, 1) }, c1);
    await s1.commit(c1);
    const c2 = ctxAt('r2', clock);
    const s2 = sink(out, { maxRowsPerFile: 3 });
    await s2.write({ stream: 'k', seq: 1, records: minutes(1, 2).map((r) => ({ ...r, source: '/kline/latest' })) }, c2);
    await s2.commit(c2);
    expect((await manifestOf(out)).files.length).toBe(2);
    await compactLake(out, { ...storageOf(out), ctx: ctxAt('c', clock), dryRun: false, retiredGraceMs: 0 });
    const m = await manifestOf(out);
    expect(m.files.length).toBe(1);
    const table = encoder.decode(await lakes.read(out, `kline/${m.files[0]!.path}`));
    expect(table.schema.metadata.get('quotelake.source_endpoint')).toBe('/kline,/kline/latest');
    expect(table.schema.metadata.get('quotelake.dataset')).toBe('kline');
    // Grace 0: the replaced files are gone with the same pass.
    expect(await dataFiles(out)).toEqual([m.files[0]!.path]);
  });
});

describe.each(BACKENDS)('a reader following the manifest during commits and compaction (%s)', (backend) => {
  onBackend(backend);
  it('DuckDB querying in a loop sees no error, no partial file, no doubled or missing row', async () => {
    const out = await lakes.fresh();
    const clock = new ManualClock('2026-11-21T14:30:00Z');
    // Totals a reader may see: one per committed snapshot (each run adds 40 minutes of 3 codes).
    const snapshots = new Set<number>();
    let writing = true;
    const reads = { ok: 0, totals: new Set<number>() };
    const reader = (async () => {
      while (writing) {
        let m: Manifest;
        try {
          m = await manifestOf(out);
        } catch {
          await new Promise((r) => setImmediate(r));
          continue; // no manifest yet
        }
        const [[n, keys, forming]] = (await query(`SELECT count(*)::INT, count(DISTINCT (code, ts))::INT, count(*) FILTER (WHERE NOT final)::INT FROM ${await listed(out, m)}`)) as [[number, number, number]];
        expect(n).toBe(keys);
        expect(forming).toBe(3);
        reads.totals.add(n);
        reads.ok++;
      }
    })();
    for (let run = 0; run < 12; run++) {
      const c = ctxAt(`r${String(run).padStart(2, '0')}`, clock);
      const s = sink(out, { maxRowsPerFile: 250 });
      // Re-fetch the previous run's forming bar as final, plus 40 new minutes ending on a forming bar.
      await s.write({ stream: 'k', seq: 1, records: [...minutes(Math.max(0, run * 40 - 1), run * 40 + 39), ...minutes(run * 40 + 39, run * 40 + 40, 0, false)] }, c);
      await s.commit(c);
      snapshots.add((run + 1) * 40 * 3);
      if (run % 4 === 3) await compactLake(out, { ...storageOf(out), ctx: ctxAt(`compact-${run}`, clock), dryRun: false, retiredGraceMs: 300_000, maxRowsPerFile: 500 });
      clock.set(clock.now() + 1000);
      await new Promise((r) => setTimeout(r, 5));
    }
    writing = false;
    await reader;
    expect(reads.ok).toBeGreaterThan(5);
    for (const t of reads.totals) expect(snapshots).toContain(t);
    expect((await readBack(out)).length).toBe(480 * 3);
  });
});
