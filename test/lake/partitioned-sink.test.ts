/**
 * Compliance of the partitioned sinks (parquet and arrow share the writer; both are run, and parquet
 * also with its files encoded in a worker thread), each on both backends: a local folder and an S3
 * prefix on s3rver (staged files go up from a local scratch folder; test-lakes.ts reads either).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import type { KlineRow } from '../../src/core/records.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { parquetPool } from '../../src/lake/parquet/parquet-pool.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import type { Manifest } from '../../src/lake/commit/manifest.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import type { TableEncoder } from '../../src/lake/encode/table-encoder.js';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { RollForwardHooks } from '../../src/lake/commit/commit-journal.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { duck, runContext, tempDir } from '../sinks/helpers.js';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';
import { BACKENDS, readText, useTestLakes, type TestLakes } from './test-lakes.js';

/** [name, encoder, encode workers (0: on the calling thread)] */
const encoders: [string, () => TableEncoder, number][] = [
  ['parquet', () => parquetEncoder({ rowGroupRows: 131072 }), 0],
  ['parquet in a worker', () => parquetEncoder({ rowGroupRows: 131072 }), 1],
  ['arrow', () => arrowEncoder(), 0],
];

const opened: PartitionedSink<KlineRow>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function makeSink(out: string, encoder: TableEncoder, workers: number, hooks?: RollForwardHooks, maxBufferedRows = 200_000, maxBufferedBytes = 1 << 30, storage?: LakeStorage) {
  const writer = workers > 0 ? parquetPool(workers, { dataset: 'kline', decimal: DEFAULT_DECIMAL, rowGroupRows: 131072 }) : undefined;
  const s = new PartitionedSink<KlineRow>({ outputDir: out, spec: klineSpec, encoder, decimal: DEFAULT_DECIMAL, maxRowsPerFile: 1_000_000, maxBufferedRows, maxBufferedBytes, hooks, writer, ...(storage ? { storage } : {}) });
  opened.push(s);
  return s;
}

const sink = (out: string, encoder: TableEncoder, hooks?: RollForwardHooks, maxBufferedRows?: number, maxBufferedBytes?: number) => makeSink(out, encoder, 0, hooks, maxBufferedRows, maxBufferedBytes);

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.map((e) => e.split('\\').join('/')).filter((e) => /\.(parquet|arrow|json|ndjson)$|tmp-/.test(e)).sort();
}

async function readAll(out: string, encoder: TableEncoder, lakes?: TestLakes): Promise<KlineRow[]> {
  if (lakes !== undefined) {
    const manifest = JSON.parse(await readText(lakes, out, `_quotelake/manifests/kline.${encoder.format}.json`)) as Manifest;
    const stored = (await lakes.keys(out, 'kline')).filter((f) => f.endsWith(encoder.extension));
    // Replaced files stay in the lake, listed as retired, for the grace period.
    expect(stored).toEqual([...manifest.files, ...manifest.retired].map((f) => f.path).sort());
    const rows: KlineRow[] = [];
    for (const f of manifest.files) rows.push(...klineSpec.fromTable(encoder.decode(await lakes.read(out, `kline/${f.path}`)), posix.dirname(f.path)));
    return rows.sort((a, b) => a.code.localeCompare(b.code) || a.ts - b.ts);
  }
  const manifest = JSON.parse(await readFile(join(out, '_quotelake/manifests', `kline.${encoder.format}.json`), 'utf8')) as Manifest;
  const onDisk = (await files(join(out, 'kline'))).filter((f) => f.endsWith(encoder.extension));
  // Replaced files stay on disk, listed as retired, for the grace period.
  expect(onDisk).toEqual([...manifest.files, ...manifest.retired].map((f) => f.path).sort());
  const rows: KlineRow[] = [];
  for (const f of manifest.files) rows.push(...klineSpec.fromTable(encoder.decode(await readFile(join(out, 'kline', f.path))), posix.dirname(f.path)));
  return rows.sort((a, b) => a.code.localeCompare(b.code) || a.ts - b.ts);
}

const bars = (pairs: [number, string, boolean][], code = 'BTCUSDT') => klineRows(pairs.map(([m, close, final]) => rawKline(code, '1m', T0 + 60 * m, close, final)));

/**
 * The minutes a newest-first backfill walks, [PAGED_FROM, PAGED_TO): the last hour of 2025-11-19 and
 * the first of 2025-11-20 (T0 is 07:00 UTC), so its pages cross a day and make two partitions.
 */
const PAGED_FROM = 960;
const PAGED_TO = 1080;
/** Newest-first pages of 5 bars, each overlapping the next older one by a bar: the minutes of each. */
function newestFirstPages(): { end: number; page: number[] }[] {
  const pages = [];
  for (let end = PAGED_TO; end > PAGED_FROM; end -= 4) pages.push({ end, page: [0, 1, 2, 3, 4].map((k) => end - 5 + k).filter((m) => m >= PAGED_FROM) });
  return pages;
}

const cases = BACKENDS.flatMap((backend) => encoders.map(([name, makeEncoder, workers]) => [name, backend, makeEncoder, workers] as const));

describe.each(cases)('%s sink compliance (%s)', (name, backend, makeEncoder, workers) => {
  const encoder = makeEncoder();
  const format = encoder.format;
  const lakes = useTestLakes(backend);
  const sink = (out: string, enc: TableEncoder, hooks?: RollForwardHooks, maxBufferedRows?: number, maxBufferedBytes?: number) => makeSink(out, enc, workers, hooks, maxBufferedRows, maxBufferedBytes, lakes.storage(out));

  it('shows nothing before commit and leaves nothing after abort', async () => {
    const out = await lakes.fresh();
    const ctx = runContext('r1');
    const s = sink(out, encoder);
    await s.write({ stream: 'k', seq: 1, records: bars([[0, '1', true]]) }, ctx);
    await s.flush(ctx);
    expect((await lakes.keys(out)).filter((f) => !f.startsWith('_quotelake'))).toEqual([]);
    expect((await lakes.keys(out)).some((f) => f.startsWith('_quotelake/staging/r1/kline-'))).toBe(true);
    await s.abort(ctx);
    expect(await lakes.top(out)).toEqual([]);
  });

  it('merges a partition written again: newest wins, forming → final, never duplicates', async () => {
    const out = await lakes.fresh();
    const s1 = sink(out, encoder);
    const c1 = runContext('r1');
    await s1.write({ stream: 'k', seq: 1, records: bars([[0, '1', true], [1, '2', true], [2, '3.1', false]]) }, c1);
    await s1.commit(c1);
    // a second run re-fetches the last bar (now final) and one more
    const s2 = sink(out, encoder);
    const c2 = runContext('r2');
    await s2.write({ stream: 'k', seq: 1, records: bars([[2, '3.25', true], [3, '4', false]]) }, c2);
    const receipt = await s2.commit(c2);
    expect(receipt.files.map((f) => f.path)).toEqual([`kline/interval=1m/year=2025/date=2025-11-19/part-r2-00002${encoder.extension}`]);
    // The run wrote 2 rows; the merged file holds 4 (the live rows it absorbed are not "written" again).
    expect(receipt.rows).toBe(2);
    expect(receipt.files.map((f) => f.rows)).toEqual([4]);
    let rows = await readAll(out, encoder, lakes);
    expect(rows.map((r) => [r.ts, r.close, r.final])).toEqual([
      [T0 * 1000, '1', true],
      [(T0 + 60) * 1000, '2', true],
      [(T0 + 120) * 1000, '3.25', true],
      [(T0 + 180) * 1000, '4', false],
    ]);
    // a forming version never replaces a final bar; a re-run of the same rows changes nothing
    const s3 = sink(out, encoder);
    const c3 = runContext('r3');
    await s3.write({ stream: 'k', seq: 1, records: bars([[2, '9', false], [3, '4', false], [3, '4.5', true]]) }, c3);
    await s3.commit(c3);
    rows = await readAll(out, encoder, lakes);
    expect(rows.map((r) => [r.ts, r.close, r.final])).toEqual([
      [T0 * 1000, '1', true],
      [(T0 + 60) * 1000, '2', true],
      [(T0 + 120) * 1000, '3.25', true],
      [(T0 + 180) * 1000, '4.5', true],
    ]);
    // rows after every live key: no merge by key, but the partition is compacted to one file
    // (batch by batch); the files it replaced stay on disk, retired, for the grace period
    const s4 = sink(out, encoder);
    const c4 = runContext('r4');
    await s4.write({ stream: 'k', seq: 1, records: [...bars([[10, '11', true]]), ...bars([[0, '7', true]], 'ETHUSDT')] }, c4);
    await s4.commit(c4);
    const manifest = JSON.parse(await readText(lakes, out, `_quotelake/manifests/kline.${format}.json`)) as Manifest;
    expect(manifest.files.map((f) => [f.path, f.rows])).toEqual([[`interval=1m/year=2025/date=2025-11-19/part-r4-00002${encoder.extension}`, 6]]);
    expect(manifest.retired.map((f) => f.path.split('/').pop())).toEqual([`part-r1-00001${encoder.extension}`, `part-r2-00002${encoder.extension}`, `part-r3-00002${encoder.extension}`]);
    expect((await readAll(out, encoder, lakes)).length).toBe(6);
    expect(await lakes.top(out)).toEqual(['_quotelake', 'kline']);
  });

  it('de-duplicates within one run, across flushes', async () => {
    const out = await lakes.fresh();
    const s = sink(out, encoder, undefined, 2);
    const c = runContext('r1');
    await s.write({ stream: 'k', seq: 1, records: bars([[0, '1', false], [1, '2', true], [2, '3', true]]) }, c);
    await s.write({ stream: 'k', seq: 2, records: bars([[0, '1.5', true], [1, '2', true]]) }, c);
    await s.commit(c);
    expect((await readAll(out, encoder, lakes)).map((r) => [r.close, r.final])).toEqual([
      ['1.5', true],
      ['2', true],
      ['3', true],
    ]);
  });

  it('compacts the small disjoint files of memory-bounded flushes into one per partition', async () => {
    const out = await lakes.fresh();
    const s = sink(out, encoder, undefined, 100, 3 * klineSpec.bytesPerRow(bars([[0, '1', true]])[0]!));
    const c = runContext('r1');
    for (let k = 0; k < 4; k++) {
      await s.write({ stream: 'k', seq: k, records: [...bars([[k, `${k}`, true]]), ...bars([[k, `${k}`, true]], 'ETHUSDT'), ...bars([[k + 1440, `${k}`, true]], 'XRPUSDT')] }, c);
    }
    const receipt = await s.commit(c);
    expect(receipt.files.map((f) => [f.path.split('/').slice(1, 4).join('/'), f.rows])).toEqual([
      ['interval=1m/year=2025/date=2025-11-19', 8],
      ['interval=1m/year=2025/date=2025-11-20', 4],
    ]);
    const rows = await readAll(out, encoder, lakes);
    expect(rows.map((r) => `${r.code} ${r.ts} ${r.close} ${r.turnover}`)).toEqual(
      ['BTCUSDT', 'ETHUSDT', 'XRPUSDT'].flatMap((code) => [0, 1, 2, 3].map((k) => `${code} ${(T0 + 60 * (k + (code === 'XRPUSDT' ? 1440 : 0))) * 1000} ${k} 1175337.4468315`)),
    );
  });

  it('newest-first pages under memory pressure: spilled, then one file per partition, duplicates gone, no scratch left', async () => {
    const out = await lakes.fresh();
    // Room for 5 rows' bytes: every page pushes older ones out as spills.
    const s = sink(out, encoder, undefined, 10_000, 5 * klineSpec.bytesPerRow(bars([[0, '1', true]])[0]!));
    const c = runContext('r1');
    const spills = () => lakes.spills(out, 'r1');
    let seq = 0;
    for (const { end, page } of newestFirstPages()) {
      // Each page overlaps the next older one by a bar, two codes interleaved. BTCUSDT's shared bar
      // comes forming first and final later; ETHUSDT's final first and forming later (kept final).
      await s.write({ stream: 'k', seq: seq++, records: bars(page.map((m) => [m, `${m}.5`, m !== end - 5])) }, c);
      await s.write({ stream: 'e', seq: seq++, records: bars(page.map((m) => [m, m === end - 1 ? '0' : `${m}.25`, m !== end - 1]), 'ETHUSDT') }, c);
    }
    expect((await spills()).length).toBeGreaterThan(10);
    const receipt = await s.commit(c);
    // One file per partition: 60 minutes of each day, two codes.
    expect(receipt.files.map((f) => [f.path.split('/').slice(1, 4).join('/'), f.rows])).toEqual([
      ['interval=1m/year=2025/date=2025-11-19', 120],
      ['interval=1m/year=2025/date=2025-11-20', 120],
    ]);
    expect(await spills()).toEqual([]);
    const rows = await readAll(out, encoder, lakes);
    expect(rows).toHaveLength(240);
    // Every bar once, the final version where one came (the newest ETHUSDT bar only ever came forming).
    expect(rows.filter((r) => !r.final).map((r) => [r.code, r.ts])).toEqual([['ETHUSDT', (T0 + 60 * (PAGED_TO - 1)) * 1000]]);
    expect(rows.filter((r) => r.code === 'BTCUSDT').map((r) => r.ts)).toEqual(Array.from({ length: 120 }, (_, m) => (T0 + 60 * (PAGED_FROM + m)) * 1000));
    // A bar that came forming at the top of one page and final at the foot of the next older one.
    expect(rows.find((r) => r.code === 'ETHUSDT' && r.ts === (T0 + 60 * (PAGED_FROM + 7)) * 1000)!.close).toBe(`${PAGED_FROM + 7}.25`);
  });

  it('newest-first pages that say what is settled: each day is finished once passed, where it would have been spilled, with the same files', async () => {
    // Room for 200 rows: the 150 of 2025-11-19 or the 148 of 2025-11-20 as they come (a bar a page is sent twice), not both.
    const backfill = async (settled: boolean) => {
      const out = await lakes.fresh();
      const s = sink(out, encoder, undefined, 10_000, 200 * klineSpec.bytesPerRow(bars([[0, '1', true]])[0]!));
      const c = runContext('r1');
      let seq = 0;
      let spilled = 0;
      for (const { end, page } of newestFirstPages()) {
        // Later pages reach down from minute end - 5 (they overlap this one by that bar).
        const hint = settled ? { settledFrom: (T0 + 60 * (end - 4)) * 1000 } : {};
        await s.write({ stream: 'k', seq: seq++, records: bars(page.map((m) => [m, `${m}.5`, m !== end - 5])) }, c);
        await s.write({ stream: 'e', seq: seq++, records: bars(page.map((m) => [m, m === end - 1 ? '0' : `${m}.25`, m !== end - 1]), 'ETHUSDT'), ...hint }, c);
        spilled = Math.max(spilled, (await lakes.spills(out, 'r1')).length);
      }
      const receipt = await s.commit(c);
      return { out, spilled, files: receipt.files.map((f) => [f.path.split('/').slice(1, 4).join('/'), f.rows]) };
    };
    const without = await backfill(false);
    const withHint = await backfill(true);
    expect(without.spilled).toBeGreaterThan(0);
    expect(withHint.spilled).toBe(0);
    for (const run of [without, withHint]) {
      expect(run.files).toEqual([
        ['interval=1m/year=2025/date=2025-11-19', 120],
        ['interval=1m/year=2025/date=2025-11-20', 120],
      ]);
    }
    const rows = await readAll(withHint.out, encoder, lakes);
    expect(rows).toEqual(await readAll(without.out, encoder, lakes));
    expect(rows.filter((r) => !r.final).map((r) => [r.code, r.ts])).toEqual([['ETHUSDT', (T0 + 60 * (PAGED_TO - 1)) * 1000]]);
    expect(rows.filter((r) => r.code === 'BTCUSDT').map((r) => r.ts)).toEqual(Array.from({ length: 120 }, (_, m) => (T0 + 60 * (PAGED_FROM + m)) * 1000));
  });

  it('a row that comes for a day already settled (a wrong hint) is merged at the commit: one row a key, the newer kept', async () => {
    const out = await lakes.fresh();
    const s = sink(out, encoder);
    const c = runContext('r1');
    // T0 is 07:00 UTC: minute 1020 opens 2025-11-20.
    const day2 = (T0 + 60 * 1020) * 1000;
    await s.write({ stream: 'k', seq: 1, records: bars([[1020, '1', false], [1021, '1', true]]), settledFrom: day2 }, c);
    await s.write({ stream: 'k', seq: 2, records: bars([[1019, '1', true]]) }, c);
    await s.write({ stream: 'k', seq: 3, records: bars([[1020, '2', true], [1022, '3', true]]) }, c);
    const receipt = await s.commit(c);
    expect(receipt.files.map((f) => [f.path.split('/').slice(1, 4).join('/'), f.rows])).toEqual([
      ['interval=1m/year=2025/date=2025-11-19', 1],
      ['interval=1m/year=2025/date=2025-11-20', 3],
    ]);
    const rows = await readAll(out, encoder, lakes);
    expect(rows.map((r) => [r.ts, r.close, r.final])).toEqual([
      [day2 - 60_000, '1', true],
      [day2, '2', true],
      [day2 + 60_000, '1', true],
      [day2 + 120_000, '3', true],
    ]);
  });

  it('an aborted run with spills leaves nothing', async () => {
    const out = await lakes.fresh();
    const s = sink(out, encoder, undefined, 10_000, 2 * klineSpec.bytesPerRow(bars([[0, '1', true]])[0]!));
    const c = runContext('r1');
    for (let k = 10; k > 0; k--) await s.write({ stream: 'k', seq: 10 - k, records: bars([[k * 3, '1', true], [k * 3 + 1, '1', true], [k * 3 + 2, '1', true]]) }, c);
    await s.abort(c);
    expect(await lakes.top(out)).toEqual([]);
  });

  it('compaction keeps the metadata of every compacted file (source endpoints united)', async () => {
    const out = await lakes.fresh();
    // A one-row memory bound: the two rows of 2025-11-19 are staged as two files, one per endpoint.
    const s = sink(out, encoder, undefined, 100, klineSpec.bytesPerRow(bars([[0, '1', true]])[0]!));
    const c = runContext('r1');
    await s.write({ stream: 'k', seq: 1, records: bars([[0, '1', true]]) }, c);
    await s.write({ stream: 'k', seq: 2, records: bars([[1440, '1', true]], 'XRPUSDT') }, c);
    await s.write({ stream: 'k', seq: 3, records: bars([[1, '2', true]], 'ETHUSDT').map((r) => ({ ...r, source: '/kline/latest' })) }, c);
    const receipt = await s.commit(c);
    const day1 = receipt.files.find((f) => f.path.includes('date=2025-11-19'))!;
    expect(day1.rows).toBe(2);
    const metadata = encoder.decode(await lakes.read(out, day1.path)).schema.metadata;
    expect(metadata.get('quotelake.source_endpoint')).toBe('/kline,/kline/latest');
    expect(metadata.get('quotelake.dataset')).toBe('kline');
    expect(metadata.get('quotelake.ts')).toBe('bar open time (UTC)');
  });

  const steps = ['add:0', 'add:1', 'manifest', 'journal'];
  it.each(steps)('recover() rolls a commit forward after a crash after step %s', async (crashAfter) => {
    const out = await lakes.fresh();
    const s1 = sink(out, encoder);
    const c1 = runContext('r1');
    await s1.write({ stream: 'k', seq: 1, records: [...bars([[0, '1', true], [1, '2', false]]), ...klineRows([rawKline('BTCUSDT', '1d', T0, '5')])] }, c1);
    await s1.commit(c1);
    let n = { add: 0, remove: 0 };
    const hooks: RollForwardHooks = {
      afterStep(step) {
        const kind = step.split(':')[0]!;
        const name = kind === 'add' || kind === 'remove' ? `${kind}:${n[kind]++}` : kind;
        if (name === crashAfter) throw new Error('simulated crash');
      },
    };
    const s2 = sink(out, encoder, hooks);
    const c2 = runContext('r2');
    await s2.write({ stream: 'k', seq: 1, records: [...bars([[1, '2.5', true], [2, '3', true]]), ...klineRows([rawKline('BTCUSDT', '1d', T0 + 86400 * 400, '6')])] }, c2);
    await expect(s2.commit(c2)).rejects.toThrow('commit failed');
    const next = sink(out, encoder);
    await next.recover(runContext('r3'));
    const rows = (await readAll(out, encoder, lakes)).map((r) => `${r.interval} ${new Date(r.ts).toISOString()} ${r.close}`).sort();
    expect(rows).toEqual([
      '1d 2025-11-19T07:00:00.000Z 5',
      '1d 2026-12-24T07:00:00.000Z 6',
      '1m 2025-11-19T07:00:00.000Z 1',
      '1m 2025-11-19T07:01:00.000Z 2.5',
      '1m 2025-11-19T07:02:00.000Z 3',
    ]);
    expect(await lakes.top(out)).toEqual(['_quotelake', 'kline']);
  });

  it('abort() after a commit failed past its journal finishes that commit instead of stranding it', async () => {
    const out = await lakes.fresh();
    let crashed = false;
    const s = sink(out, encoder, {
      afterStep(step) {
        if (!crashed && step.startsWith('add:')) {
          crashed = true;
          throw new Error('disk hiccup');
        }
      },
    });
    const c = runContext('r1');
    await s.write({ stream: 'k', seq: 1, records: [...bars([[0, '1', true]]), ...klineRows([rawKline('BTCUSDT', '1d', T0, '5')])] }, c);
    await expect(s.commit(c)).rejects.toThrow('commit failed');
    await s.abort(c);
    expect((await readAll(out, encoder, lakes)).map((r) => r.close).sort()).toEqual(['1', '5']);
    expect(await lakes.top(out)).toEqual(['_quotelake', 'kline']);
  });

  it('recover() discards a run that crashed before its journal and sweeps orphans', async () => {
    const out = await lakes.fresh();
    const c1 = runContext('r1');
    const s1 = sink(out, encoder);
    await s1.write({ stream: 'k', seq: 1, records: bars([[0, '1', true]]) }, c1);
    await s1.commit(c1);
    const s2 = sink(out, encoder);
    const c2 = runContext('r2');
    await s2.write({ stream: 'k', seq: 1, records: bars([[5, '1', true]]) }, c2);
    await s2.flush(c2); // staged, never committed: the process "dies" here
    await lakes.write(out, `kline/interval=1m/year=2025/date=2025-11-19/part-zz-00001${encoder.extension}`, 'half a file');
    await sink(out, encoder).recover(runContext('r3'));
    expect(await lakes.top(out)).toEqual(['_quotelake', 'kline']);
    expect((await readAll(out, encoder, lakes)).map((r) => r.close)).toEqual(['1']);
  });

  it.runIf(backend === 'local')('recover() refuses a file where the dataset folder goes, before any row is fetched', async () => {
    const out = await lakes.fresh();
    await lakes.write(out, 'kline', 'mine');
    await expect(sink(out, encoder).recover(runContext('r1'))).rejects.toThrow(`kline: ${out}/kline is a file, where the dataset's folder goes: move the file away, or choose another --output`);
    expect(await readText(lakes, out, 'kline')).toBe('mine');
  });

  it('recover() removes the temp file of a first manifest whose writer was killed', async () => {
    const out = await lakes.fresh();
    await lakes.write(out, '_quotelake/manifests/kline.parquet.json.tmp-12345-abc', '{"files": [');
    await sink(out, encoder).recover(runContext('r2'));
    // The temp file is gone, and with it the folders it alone held.
    expect(await lakes.top(out)).toEqual([]);
  });

  it('sanitises partition values: nothing escapes the dataset folder', async () => {
    const out = await lakes.fresh();
    const c = runContext('../../r1');
    const s = sink(out, encoder);
    const evil = { ...bars([[0, '1', true]])[0]!, interval: '../../etc' as never, code: '../../etc/passwd' };
    await s.write({ stream: 'k', seq: 1, records: [evil] }, c);
    const receipt = await s.commit(c);
    expect(receipt.files.map((f) => f.path)).toEqual([`kline/interval=%2E%2E%2F%2E%2E%2Fetc/year=2025/date=2025-11-19/part-%2E%2E%2F%2E%2E%2Fr1-00001${encoder.extension}`.replaceAll('part-%2E%2E%2F%2E%2E%2F', 'part-_2E_2E_2F_2E_2E_2F')]);
    expect(await lakes.top(out)).toEqual(['_quotelake', 'kline']);
    expect((await readAll(out, encoder, lakes))[0]!.code).toBe('../../etc/passwd');
  });

  it(`${name}: files read back through apache-arrow with the decimal and timestamp types`, async () => {
    const out = await lakes.fresh();
    const c = runContext('r1');
    const s = sink(out, encoder);
    await s.write({ stream: 'k', seq: 1, records: bars([[0, '0.000018712345600000', true]]) }, c);
    const receipt = await s.commit(c);
    const table = encoder.decode(await lakes.read(out, receipt.files[0]!.path));
    expect(table.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual([
      'code:Utf8',
      'ts:Timestamp<MILLISECOND, UTC>',
      'open:Decimal[38e+18]',
      'high:Decimal[38e+18]',
      'low:Decimal[38e+18]',
      'close:Decimal[38e+18]',
      'volume:Decimal[38e+18]',
      'turnover:Decimal[38e+18]',
      'final:Bool',
    ]);
    if (format === 'arrow') {
      const t = tableFromIPC(await lakes.read(out, receipt.files[0]!.path));
      expect(t.schema.metadata.get('quotelake.ts')).toBe('bar open time (UTC)');
      expect(t.schema.metadata.get('quotelake.schema_version')).toBe('2');
    }
  });
});

describe('DuckDB reads the merged tree', () => {
  it('counts each key once after overlapping runs', async () => {
    const out = await tempDir();
    const encoder = parquetEncoder({ rowGroupRows: 131072 });
    for (const run of ['a', 'b', 'c']) {
      const s = sink(out, encoder);
      const c = runContext(run);
      await s.write({ stream: 'k', seq: 1, records: bars([[0, '1', true], [1, '2', run === 'c'], [2, '3', false]]) }, c);
      await s.commit(c);
    }
    // A reader following the manifest sees each key once; a glob also sees the files retired within the grace.
    const manifest = JSON.parse(await readFile(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as Manifest;
    const list = manifest.files.map((f) => `'${join(out, 'kline', f.path)}'`).join(', ');
    const got = await duck(`select count(*)::int n, count(distinct ts)::int k, sum(final::int)::int f from read_parquet([${list}], hive_partitioning=true)`);
    expect(got).toEqual([{ n: 3, k: 3, f: 2 }]);
    expect(manifest.retired.map((f) => f.path.split('/').pop())).toEqual(['part-a-00001.parquet', 'part-b-00002.parquet']);
  });
});
