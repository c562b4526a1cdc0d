/**
 * A layout every reader opens (issue 13, point 3): a real pipeline against the emulator writes every
 * dataset as Parquet and as Arrow, then every reader available from npm reads every dataset folder
 * as it is: DuckDB in one hive glob, hyparquet and parquet-wasm over each Parquet file,
 * apache-arrow and flechette over each Arrow IPC file. No bookkeeping inside a dataset folder, no column twice,
 * the rows and values are the ones written.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { PassThrough } from 'node:stream';
import { decompress } from '@bokuweb/zstd-wasm';
import { tableFromIPC as flechetteFromIPC } from '@uwdata/flechette';
import { tableFromIPC, type Decimal } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { formatDecimal, formatDecimalWords } from '../../src/core/decimal.js';
import { DATASETS, type Dataset } from '../../src/core/records.js';
import { PATH_ONLY_COLUMNS } from '../../src/core/schemas.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { readManifest, type Manifest } from '../../src/lake/commit/manifest.js';
import { datasetSpec } from '../../src/lake/datasets/index.js';
import { parquetWasm } from '../../src/lake/parquet/parquet-wasm.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { initZstdWasmOnce } from '../../src/lake/parquet/direct/zstd-wasm.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { startWorld, type World } from '../sources/helpers/world.js';
import { duck, tempDir } from '../sinks/helpers.js';

// The independent reader's zstd (WebAssembly), whichever codec our writer used; started through
// our once-per-thread init, as the library re-compiles on every init().
await initZstdWasmOnce();

const FORMATS = ['parquet', 'arrow'] as const;
type Format = (typeof FORMATS)[number];

const SOURCES: Record<Dataset, { type: string } & Record<string, unknown>> = {
  kline: { type: 'kline-history', codes: ['BTCUSDT', 'EURUSD', 'AAPL.US'], intervals: ['1m', '1h', '1d'], since: '2d' },
  trade: { type: 'trade-snapshot', codes: ['BTCUSDT', 'EURUSD', 'AAPL.US', '700.HK'] },
  // US500: a CFD index whose book has no volume (NULL volumes in the nested levels).
  depth: { type: 'depth-snapshot', codes: ['BTCUSDT', 'EURUSD', 'AAPL.US', '700.HK', 'US500'] },
  halt: { type: 'trading-halts', exchanges: ['sse', 'nyse'] },
};

/** The primary key of a row as text, and one decimal column (null when the row has none). */
const KEY: Record<Dataset, { sql: string; row: (r: Record<string, unknown>) => string }> = {
  kline: { sql: `code || '|' || interval || '|' || epoch_ms(ts) || '|' || close::VARCHAR`, row: (r) => `${r.code}|${r.interval}|${r.ts}|${r.close}` },
  trade: { sql: `code || '|' || seq || '|' || price::VARCHAR`, row: (r) => `${r.code}|${r.seq}|${r.price}` },
  depth: { sql: `code || '|' || seq || '|' || len(bids)`, row: (r) => `${r.code}|${r.seq}|${(r.bids as unknown[]).length}` },
  halt: {
    sql: `exchange || '|' || symbol || '|' || epoch_ms(published_at) || '|' || coalesce(pause_threshold_price::VARCHAR, '-')`,
    row: (r) => `${r.exchange}|${r.symbol}|${r.published_at}|${r.pause_threshold_price ?? '-'}`,
  },
};

/** DuckDB prints a DECIMAL with every digit of its scale: canonical text drops trailing zeros. */
const canon = (key: string) => key.replace(/(\.\d*?)0+(?=\||$)/g, '$1').replace(/\.(?=\||$)/g, '');

let out: string;
let world: World | undefined;
const manifests = new Map<string, Manifest>();
/** What was written, read back through the lake's own reader: dataset.format → keys. */
const written = new Map<string, string[]>();

beforeAll(async () => {
  out = await tempDir('ql-every-reader-');
  world = await startWorld('2026-11-20T12:00:00.000Z');
  for (const dataset of DATASETS) {
    for (const format of FORMATS) {
      const result = await runPipeline(
        {
          name: `every-${dataset}-${format}`,
          source: SOURCES[dataset],
          transforms: [{ type: dataset === 'halt' ? 'normalize-halts' : 'parse-decimals' }],
          sink: { type: format },
        },
        { registry: components, outputDir: out, client: world.client('professional'), clock: world.clock, events: createRunEvents(), stdout: new PassThrough() },
      );
      expect(result.status, `${dataset} ${format}`).toBe('succeeded');
      const manifest = (await readManifest(out, dataset, format))!;
      manifests.set(`${dataset}.${format}`, manifest);
      const encoder = format === 'parquet' ? parquetEncoder({ rowGroupRows: 131_072 }) : arrowEncoder();
      const keys: string[] = [];
      for (const f of manifest.files) {
        const rows = datasetSpec(dataset).fromTable(encoder.decode(await readFile(join(out, dataset, f.path))), posix.dirname(f.path));
        for (const r of rows) keys.push(KEY[dataset].row(r as unknown as Record<string, unknown>));
      }
      written.set(`${dataset}.${format}`, keys.sort());
    }
  }
}, 240_000);

afterAll(async () => {
  await world?.close();
});

async function filesOf(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}

function expectUniqueColumns(names: readonly string[], where: string): void {
  expect(new Set(names).size, `${where}: ${names.join(',')}`).toBe(names.length);
}

describe('every reader opens every dataset folder', () => {
  it.each(DATASETS)('%s: only data files in the folder, each named by its format', async (dataset) => {
    const files = await filesOf(join(out, dataset));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => !/\.(parquet|arrow)$/.test(f) || /\/[._]/.test(f.slice(out.length)))).toEqual([]);
    for (const format of FORMATS) expect(written.get(`${dataset}.${format}`)!.length, `${dataset} ${format}`).toBeGreaterThan(dataset === 'kline' ? 1000 : 3);
  });

  it.each(DATASETS)('%s: DuckDB read_parquet(<ds>/**/*.parquet, hive_partitioning = true) in one call', async (dataset) => {
    const glob = `read_parquet('${out}/${dataset}/**/*.parquet', hive_partitioning = true)`;
    const columns = (await duck(`DESCRIBE SELECT * FROM ${glob}`)).map((r) => r.column_name as string);
    expectUniqueColumns(columns, `duckdb ${dataset}`);
    for (const key of PATH_ONLY_COLUMNS[dataset]) expect(columns).toContain(key);
    const rows = await duck(`SELECT ${KEY[dataset].sql} AS k FROM ${glob}`);
    expect(rows.map((r) => canon(r.k as string)).sort()).toEqual(written.get(`${dataset}.parquet`));
  });

  it.each(DATASETS)('%s: hyparquet and parquet-wasm read every Parquet file; no hive key inside a file', async (dataset) => {
    const manifest = manifests.get(`${dataset}.parquet`)!;
    const rowsByPath = new Map(manifest.files.map((f) => [join(out, dataset, f.path), f.rows]));
    const files = (await filesOf(join(out, dataset))).filter((f) => f.endsWith('.parquet'));
    expect(files).toEqual([...rowsByPath.keys()].sort());
    let total = 0;
    for (const file of files) {
      const bytes = await readFile(file);
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const metadata = parquetMetadata(buffer);
      // Every name in the file's schema (nested fields included): no hive key anywhere.
      const names = metadata.schema.slice(1).map((e) => e.name);
      const top = (await parquetReadObjects({ file: buffer, compressors: { ZSTD: (input: Uint8Array) => decompress(input) } })) as Record<string, unknown>[];
      expect(top.length, file).toBe(rowsByPath.get(file));
      const topNames = Object.keys(top[0] ?? {});
      expectUniqueColumns(topNames, `hyparquet ${file}`);
      for (const key of PATH_ONLY_COLUMNS[dataset]) {
        expect(topNames, file).not.toContain(key);
        expect(names, file).not.toContain(key);
      }
      const table = tableFromIPC(parquetWasm().readParquet(bytes).intoIPCStream());
      expect(table.numRows, file).toBe(rowsByPath.get(file));
      expectUniqueColumns(table.schema.fields.map((f) => f.name), `parquet-wasm ${file}`);
      for (const key of PATH_ONLY_COLUMNS[dataset]) expect(table.schema.fields.map((f) => f.name)).not.toContain(key);
      total += table.numRows;
    }
    expect(total).toBe(written.get(`${dataset}.parquet`)!.length);
  });

  it.each(DATASETS)('%s: apache-arrow reads every Arrow IPC file; the hive key comes from the path', async (dataset) => {
    const manifest = manifests.get(`${dataset}.arrow`)!;
    const files = (await filesOf(join(out, dataset))).filter((f) => f.endsWith('.arrow'));
    expect(files).toEqual(manifest.files.map((f) => join(out, dataset, f.path)).sort());
    const keys: string[] = [];
    for (const file of files) {
      const table = tableFromIPC(await readFile(file));
      const names = table.schema.fields.map((f) => f.name);
      expectUniqueColumns(names, `apache-arrow ${file}`);
      for (const key of PATH_ONLY_COLUMNS[dataset]) expect(names).not.toContain(key);
      // What a hive-aware reader adds: the partition path's keys.
      const hive = Object.fromEntries(
        posix
          .dirname(file.slice(join(out, dataset).length + 1))
          .split('/')
          .map((s) => s.split('=') as [string, string]),
      );
      for (const row of table) {
        const r: Record<string, unknown> = { ...hive, ...(row!.toJSON() as Record<string, unknown>) };
        for (const f of table.schema.fields) {
          const v = r[f.name];
          if (v instanceof Uint32Array) r[f.name] = formatDecimalWords(v, 0, (f.type as Decimal).scale);
          else if (typeof v === 'bigint') r[f.name] = Number(v);
        }
        if (dataset === 'depth') r.bids = [...(r.bids as Iterable<unknown>)];
        keys.push(KEY[dataset].row(r));
      }
    }
    expect(keys.sort()).toEqual(written.get(`${dataset}.arrow`));
  });

  it.each(DATASETS)('%s: flechette reads every Arrow IPC file with the types of the spec, every value as apache-arrow reads it', async (dataset) => {
    const manifest = manifests.get(`${dataset}.arrow`)!;
    /** A decoded value as exact text: decimals from their scaled integer, nested levels element by element. */
    const text = (v: unknown, scale: number | undefined): unknown => {
      if (v === null || v === undefined) return null;
      if (v instanceof Uint32Array) return formatDecimalWords(v, 0, scale!);
      if (typeof v === 'bigint') return scale === undefined ? String(v) : formatDecimal(v, scale);
      if (typeof v === 'object' && Symbol.iterator in v) return [...(v as Iterable<unknown>)].map((x) => text(x, scale));
      if (typeof v === 'object') return Object.fromEntries(Object.entries((v as { toJSON?: () => object }).toJSON?.() ?? v).map(([k, x]) => [k, text(x, scale)]));
      return v;
    };
    let nullVolumes = 0;
    for (const f of manifest.files) {
      const bytes = await readFile(join(out, dataset, f.path));
      // Decimals as scaled integers and 64-bit values as BigInt: nothing through a float.
      const other = flechetteFromIPC(bytes, { useDecimalInt: true, useBigInt: true });
      const table = tableFromIPC(bytes);
      expect(other.numRows, f.path).toBe(f.rows);
      expect(Object.fromEntries(other.schema.metadata ?? new Map()), f.path).toEqual(Object.fromEntries(table.schema.metadata));
      for (const field of other.schema.fields) {
        const t = field.type as { typeId: number; precision?: number; scale?: number; unit?: number; timezone?: string; children?: { type: { children?: { name: string; nullable: boolean; type: { typeId: number; precision?: number; scale?: number } }[] } }[] };
        // Decimal128(38, 18) unless narrowed; timestamps in milliseconds, UTC; books as list<struct<price, volume>>.
        if (t.typeId === 7) expect([t.precision, t.scale], `${f.path} ${field.name}`).toEqual([38, 18]);
        if (t.typeId === 10) expect([t.unit, t.timezone], `${f.path} ${field.name}`).toEqual([1, 'UTC']);
        if (t.typeId === 12) {
          const level = t.children![0]!.type.children!;
          expect(level.map((c) => [c.name, c.type.typeId, c.type.precision, c.type.scale, c.nullable])).toEqual([
            ['price', 7, 38, 18, false],
            ['volume', 7, 38, 18, true],
          ]);
        }
        // No dictionary encoding: a reader gets plain columns.
        expect(t.typeId, `${f.path} ${field.name}`).not.toBe(-1);
        const scale = t.typeId === 7 ? t.scale : t.typeId === 12 ? 18 : undefined;
        const mine = Array.from(other.getChild(field.name).toArray() as ArrayLike<unknown>, (v) => text(v, scale));
        const theirs = Array.from({ length: table.numRows }, (_, i) => text(table.getChild(field.name)!.get(i), scale));
        expect(mine, `${f.path} ${field.name}`).toEqual(theirs);
        if (field.name === 'bids') nullVolumes += (mine as { volume: unknown }[][]).flat().filter((l) => l.volume === null).length;
      }
    }
    if (dataset === 'depth') expect(nullVolumes, 'US500 levels without a volume').toBeGreaterThan(0);
  });
});
