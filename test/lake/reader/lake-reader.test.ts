import { readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LakeReadError } from '../../../src/core/errors.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { manifestPath, type Manifest } from '../../../src/lake/commit/manifest.js';
import {
  lakeDataset,
  readFileRows,
  readLakeRecords,
  readLakeRows,
  SERIES_METADATA_KEY,
  summarizeFile,
  summarizeLake,
  type DatasetSummary,
  type LakeFormat,
} from '../../../src/lake/reader/index.js';
import { T0 } from '../../sinks/fixtures.js';
import { tempDir } from '../../sinks/helpers.js';
import { wholeFileTruth, writeLake } from './lake-fixture.js';

const DAY1 = T0 * 1000;

function seriesObject(d: DatasetSummary) {
  return Object.fromEntries([...d.series].map(([k, s]) => [k, { rows: s.rows, first: s.first, last: s.last }]));
}

describe.each(['parquet', 'arrow'] as const)('lake reader over files written by the %s sink', (format: LakeFormat) => {
  it('footers give the rows, series first/last and files the whole-file decode gives', async () => {
    const out = await tempDir();
    await writeLake(out, format);
    const truth = await wholeFileTruth(out, format);
    const [kline, ...others] = await summarizeLake(out);
    expect(others).toEqual([]);
    expect(kline!.dataset).toBe('kline');
    expect(kline!.format).toBe(format);
    expect(kline!.problems).toEqual([]);
    expect(kline!.rows).toBe(truth.rows);
    expect(kline!.rows).toBe(90 + 90 + 30 + 20 + 30 + 10);
    expect(seriesObject(kline!)).toEqual(truth.series);
    expect(truth.series['BTCUSDT 1m']).toEqual({ rows: 110, first: DAY1, last: DAY1 + (6 * 3600 + 19 * 60) * 1000 });
    expect(truth.series['ETHUSDT 1m']).toEqual({ rows: 120, first: DAY1, last: DAY1 + (17 * 3600 + 29 * 60) * 1000 });
    const manifest = (await lakeDataset(out, 'kline', format))!.manifest;
    expect(kline!.files).toBe(manifest.files.length);
    expect(kline!.files).toBeGreaterThanOrEqual(4);
    expect(kline!.bytes).toBe(manifest.files.reduce((a, f) => a + f.bytes, 0));
    expect(kline!.partitions).toContain('interval=1m/year=2025/date=2025-11-19');
    for (const f of kline!.perFile) expect(f.footer!.rows).toBe(f.file.listed.rows);
    // Both paths without series metadata are exercised: files of two series (columns read) and of one (statistics).
    expect(kline!.perFile.some((f) => f.series!.size === 2)).toBe(true);
    expect(kline!.perFile.some((f) => f.series!.size === 1)).toBe(true);
  });

  it('reports progress once per file, up to the total', async () => {
    const out = await tempDir();
    await writeLake(out, format);
    const calls: [number, number][] = [];
    const [kline] = await summarizeLake(out, { concurrency: 3, onProgress: (done, total) => calls.push([done, total]) });
    expect(calls).toHaveLength(kline!.files);
    expect(calls.map((c) => c[0])).toEqual(Array.from({ length: kline!.files }, (_, i) => i + 1));
    expect(new Set(calls.map((c) => c[1]))).toEqual(new Set([kline!.files]));
  });

  it('a missing file and a truncated file are listed problems; the other files still count', async () => {
    const out = await tempDir();
    await writeLake(out, format);
    const ds = (await lakeDataset(out, 'kline', format))!;
    const [gone, cut, ...rest] = ds.files;
    await rm(gone!.absPath);
    await truncate(cut!.absPath, cut!.listed.bytes - 20);
    const [kline] = await summarizeLake(out);
    expect(kline!.problems).toContain(`kline/${gone!.path}: listed in the manifest but missing`);
    expect(kline!.problems).toContain(`kline/${cut!.path}: ${cut!.listed.bytes - 20} bytes, the manifest says ${cut!.listed.bytes}`);
    expect(kline!.problems.some((p) => p.startsWith(`kline/${cut!.path}: unreadable (`))).toBe(true);
    expect(kline!.rows).toBe(rest.reduce((a, f) => a + f.listed.rows, 0));
  });

  it('projects columns, fills a hive key from the path, and refuses decimals', async () => {
    const out = await tempDir();
    await writeLake(out, format);
    const rows = await readLakeRows(out, 'kline', format, ['code', 'ts', 'date']);
    const records = await readLakeRecords(out, 'kline', format);
    expect(rows).toHaveLength(records.length);
    expect(Object.keys(rows[0]!).sort()).toEqual(['code', 'date', 'ts']);
    expect(rows.map((r) => `${r.code} ${r.ts}`).sort()).toEqual(records.map((r) => `${r.code} ${r.ts}`).sort());
    expect(new Set(rows.map((r) => r.date))).toEqual(new Set(['2025-11-19', '2025-11-20']));
    expect(rows.filter((r) => r.date === '2025-11-20' && r.code === 'ETHUSDT').length).toBe(30);
    expect(rows.filter((r) => r.date === '2025-11-20' && r.code === 'BTCUSDT').length).toBe(13); // 1h bars 00:00..12:00
    const first = (await lakeDataset(out, 'kline', format))!.files[0]!;
    await expect(readFileRows(first, ['close'])).rejects.toBeInstanceOf(LakeReadError);
  });
});

describe('lake reader: metadata and statistics', () => {
  it('takes series from quotelake.series when a file carries it, without reading a column', async () => {
    const out = await tempDir();
    await writeLake(out, 'parquet');
    const ds = (await lakeDataset(out, 'kline', 'parquet'))!;
    const file = ds.files.find((f) => f.partition.startsWith('interval=1m'))!;
    // Rewrite one file with the key the writers add (claims chosen to differ from the data, to
    // show they are what is read), and fix its size in the manifest.
    const encoder = parquetEncoder({ rowGroupRows: 131_072 });
    const table = encoder.decode(new Uint8Array(await readFile(file.absPath)));
    const series = { BTCUSDT: { rows: file.listed.rows, first: 1, last: 2 } };
    const bytes = encoder.encode(table, new Map([['quotelake.version', 'x'], [SERIES_METADATA_KEY, JSON.stringify(series)]]));
    await writeFile(file.absPath, bytes);
    const manifest: Manifest = { ...ds.manifest, files: ds.manifest.files.map((f) => (f.path === file.path ? { ...f, bytes: bytes.byteLength } : f)) };
    await writeFile(manifestPath(out, 'kline', 'parquet'), JSON.stringify(manifest));
    const summary = await summarizeFile({ ...file, listed: { ...file.listed, bytes: bytes.byteLength } });
    expect(summary.problems).toEqual([]);
    expect(summary.seriesFromMetadata).toBe(true);
    expect(Object.fromEntries(summary.series!)).toEqual({ 'BTCUSDT 1m': { rows: file.listed.rows, first: 1, last: 2 } });
    expect(summary.footer!.metadata[SERIES_METADATA_KEY]).toBe(JSON.stringify(series));
    // A file without it (as every file of 0.1.0) reads its key and time columns instead.
    const plain = ds.files.find((f) => f.path !== file.path)!;
    const fromMetadata = await summarizeFile(plain);
    expect(fromMetadata.seriesFromMetadata).toBe(true);
    const plainBytes = encoder.encode(encoder.decode(new Uint8Array(await readFile(plain.absPath))), new Map([['quotelake.version', 'x']]));
    await writeFile(plain.absPath, plainBytes);
    const other = await summarizeFile({ ...plain, listed: { ...plain.listed, bytes: plainBytes.byteLength } });
    expect(other.seriesFromMetadata).toBe(false);
    expect(other.problems).toEqual([]);
    expect(Object.fromEntries(other.series!)).toEqual(Object.fromEntries(fromMetadata.series!));
  });

  it('column statistics over the file: code and ts min/max (interval is a hive key, not a column) and null counts as the rows say', async () => {
    const out = await tempDir();
    await writeLake(out, 'parquet');
    const ds = (await lakeDataset(out, 'kline', 'parquet'))!;
    const records = await readLakeRecords(out, 'kline', 'parquet');
    for (const file of ds.files) {
      const { footer } = await summarizeFile(file, { series: false });
      const rows = await readFileRows(file, ['code', 'ts']);
      const ts = rows.map((r) => r.ts as number);
      const codes = rows.map((r) => r.code as string).sort();
      expect(footer!.statistics.ts).toEqual({ min: Math.min(...ts), max: Math.max(...ts), nullCount: 0 });
      expect(footer!.statistics.code).toMatchObject({ min: codes[0], max: codes.at(-1), nullCount: 0 });
      expect(footer!.statistics.interval).toBeUndefined();
      expect(footer!.columns.map((c) => c.name)).not.toContain('interval');
      // Decimal extremes would pass through a double: only their null count, if any, is given.
      expect(footer!.statistics.close?.min).toBeUndefined();
      expect(footer!.columns.find((c) => c.name === 'close')!.type).toBe('DECIMAL(38,18)');
      expect(footer!.columns.find((c) => c.name === 'ts')!.type).toBe('TIMESTAMP(MILLIS)');
    }
    expect(records.length).toBe(270);
  });
});
