/**
 * The direct Parquet writer held to a library's bar (design.md): random tables of every type it
 * writes (strings with "" and multi-byte text, booleans, int8, UTC millisecond instants, DECIMAL as
 * INT32, INT64 and FIXED_LEN_BYTE_ARRAY narrow and wide, each at its extremes), in one or many
 * Arrow batches, pages and row groups, with 0 to a few thousand rows, read back by three
 * independent readers: DuckDB, hyparquet and parquet-wasm (and by quotelake's own reader of these
 * files, direct-parquet-reader.ts, held to the same values). Every value must come back identical
 * (decimals as their exact unscaled integers: nothing wraps or rounds), and every filter DuckDB
 * prunes with row-group statistics (=, <, <=, >, >= on each column that has them) must return what
 * a scan of the values returns.
 *
 * Fixed seed and 20 cases by default (about 10 s here); QL_FUZZ_RUNS and QL_FUZZ_SEED raise or
 * vary them, e.g. QL_FUZZ_RUNS=500 for a long soak.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decompress } from '@bokuweb/zstd-wasm';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordsToBigInt } from '../../../src/core/decimal.js';
import { encodeDirectParquet } from '../../../src/lake/parquet/direct/direct-parquet-writer.js';
import { decodeDirectParquet } from '../../../src/lake/parquet/direct/direct-parquet-reader.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { fileProvenance } from '../../../src/lake/file-provenance.js';
import { initZstdWasmOnce } from '../../../src/lake/parquet/direct/zstd-wasm.js';
import { fileMetadataOf } from '../random-metadata.js';
import { tempDir } from '../../sinks/helpers.js';
import { caseArb, cellsOf, MAX_SAFE, name, prng, tableOf, type Case, type Cell, type Column } from '../random-tables.js';

// The independent reader's zstd (WebAssembly), whichever codec our writer used; started through
// our once-per-thread init, as the library re-compiles on every init().
await initZstdWasmOnce();

const RUNS = Number(process.env.QL_FUZZ_RUNS ?? 20);
const SEED = Number(process.env.QL_FUZZ_SEED ?? 20261123);

/** The unscaled integer of DuckDB's decimal text (it prints every fractional digit of the scale). */
function unscaledOf(text: string, scale: number): bigint {
  const neg = text.startsWith('-');
  const [int, frac = ''] = (neg ? text.slice(1) : text).split('.');
  const v = BigInt(int! + frac.padEnd(scale, '0'));
  return neg ? -v : v;
}

/** Big-endian two's complement bytes (FIXED_LEN_BYTE_ARRAY decimals) as a bigint. */
function beSigned(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return BigInt.asIntN(8 * bytes.length, v);
}

function compareCells(a: Cell, b: Cell): number {
  if (typeof a === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b as string, 'utf8'));
  if (typeof a === 'boolean') return Number(a) - Number(b);
  const y = b as number | bigint;
  return a < y ? -1 : a > y ? 1 : 0;
}

function literal(col: Column, v: Cell): string {
  switch (col.kind) {
    case 'utf8':
      return `'${(v as string).replace(/'/g, "''")}'`;
    case 'bool':
    case 'int8':
      return String(v);
    case 'ts':
      return `make_timestamp(${(v as bigint) * 1000n})::TIMESTAMPTZ`;
    case 'dec':
      throw new Error('decimals carry no statistics');
  }
}

let db: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await DuckDBInstance.create();
  conn = await db.connect();
  // Instants compare in UTC whatever the machine's zone.
  await conn.run(`SET TimeZone = 'UTC'`);
});
afterAll(() => conn.closeSync());

async function query(sql: string): Promise<unknown[][]> {
  return (await conn.runAndReadAll(sql)).getRows() as unknown[][];
}

const wasm = parquetEncoder({ rowGroupRows: 131072, writer: 'parquet-wasm' });

async function check(k: Case, dir: string, index: number): Promise<void> {
  const { columns, rows } = k;
  const rnd = prng(k.seed);
  const cells = columns.map((col) => cellsOf(col, rows, rnd, k.mode));
  const table = tableOf(columns, cells, rows, k.cuts);
  // The keys every lake file carries (provenance, series, endpoint), plus random text values.
  const kv = fileMetadataOf(fileProvenance('kline', `fuzz-${index}`), rnd);
  const createdBy = kv.get('created_by')!;
  const bytes = encodeDirectParquet(table, kv, { rowGroupRows: k.rowGroupRows, createdBy, pageRows: k.pageRows });
  const path = join(dir, `case-${index}.parquet`);
  await writeFile(path, bytes);
  const expected = (c: number) => cells[c]!;

  // 1. DuckDB, in file order.
  const select = columns
    .map((col, c) => (col.kind === 'ts' ? `epoch_ms(${name(c)})::VARCHAR` : `${name(c)}::VARCHAR`))
    .join(', ');
  const duckRows = await query(`SELECT ${select} FROM read_parquet('${path}', file_row_number = true) ORDER BY file_row_number`);
  expect(duckRows.length).toBe(rows);
  columns.forEach((col, c) => {
    const got = duckRows.map((r): Cell => {
      const text = r[c] as string;
      if (col.kind === 'utf8') return text;
      if (col.kind === 'bool') return text === 'true';
      if (col.kind === 'int8') return Number(text);
      if (col.kind === 'ts') return BigInt(text);
      return unscaledOf(text, col.scale);
    });
    expect(got, `DuckDB ${name(c)} ${JSON.stringify(col)}`).toEqual(expected(c));
  });

  const duckKv = await query(`SELECT decode(key), decode(value) FROM parquet_kv_metadata('${path}') WHERE decode(key) <> 'ARROW:schema'`);
  expect(new Map(duckKv as [string, string][]), 'DuckDB key-value metadata').toEqual(kv);
  const [[duckCreatedBy]] = (await query(`SELECT created_by FROM parquet_file_metadata('${path}')`)) as [[string]];
  expect(duckCreatedBy).toBe(createdBy);

  // 2. parquet-wasm (parquet-rs), through the Arrow schema it restores; and quotelake's own reader
  // of these files (what merges and compactions use), which must give the same table.
  const wasmBack = wasm.decode(bytes);
  const directBack = decodeDirectParquet(bytes);
  expect(directBack, 'the direct reader reads every file of the direct writer').toBeDefined();
  for (const [reader, back] of [['parquet-wasm', wasmBack], ['direct reader', directBack!]] as const) {
    expect(back.numRows).toBe(rows);
    expect(new Map(back.schema.metadata), `${reader} key-value metadata`).toEqual(kv);
    expect(back.schema.fields.map(String), `${reader} Arrow schema`).toEqual(table.schema.fields.map(String));
    columns.forEach((col, c) => {
      const vector = back.getChild(name(c))!;
      const got: Cell[] = [];
      for (let i = 0; i < rows; i++) {
        const v = vector.get(i) as unknown;
        got.push(col.kind === 'dec' ? wordsToBigInt(v as Uint32Array) : col.kind === 'ts' ? BigInt(v as number | bigint) : (v as Cell));
      }
      expect(got, `${reader} ${name(c)} ${JSON.stringify(col)}`).toEqual(expected(c));
    });
  }

  // 3. hyparquet: values at their physical type (its DECIMAL conversion goes through a double, so
  // the decimal annotation is taken off and the unscaled integers decoded here, by the format's rule).
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const parsers = { timestampFromMilliseconds: (ms: bigint) => ms };
  const metadata = parquetMetadata(buffer, { parsers });
  expect(metadata.created_by).toBe(createdBy);
  const hyKv = (metadata.key_value_metadata ?? []).filter((e) => e.key !== 'ARROW:schema').map((e): [string, string] => [e.key, e.value ?? '']);
  expect(new Map(hyKv), 'hyparquet key-value metadata').toEqual(kv);
  for (const element of metadata.schema) {
    if (element.converted_type === 'DECIMAL') {
      delete element.converted_type;
      delete element.logical_type;
    }
  }
  const objects = (await parquetReadObjects({
    file: buffer,
    metadata,
    compressors: { ZSTD: (input: Uint8Array) => decompress(input) },
    parsers,
  })) as Record<string, unknown>[];
  expect(objects.length).toBe(rows);
  columns.forEach((col, c) => {
    const got = objects.map((o): Cell => {
      const v = o[name(c)];
      if (col.kind !== 'dec') return col.kind === 'ts' ? BigInt(v as bigint) : (v as Cell);
      return v instanceof Uint8Array ? beSigned(v) : BigInt(v as number | bigint);
    });
    expect(got, `hyparquet ${name(c)} ${JSON.stringify(col)}`).toEqual(expected(c));
  });

  // Statistics: each row group's min/max (as hyparquet decodes them) are exactly its values' extremes.
  let start = 0;
  for (const group of metadata.row_groups) {
    const n = Number(group.num_rows);
    group.columns.forEach((chunk, c) => {
      const stats = chunk.meta_data?.statistics;
      const col = columns[c]!;
      if (col.kind === 'dec') return;
      const values = cells[c]!.slice(start, start + n);
      const sorted = [...values].sort(compareCells);
      expect(stats?.min_value !== undefined, `statistics of ${name(c)} ${col.kind}`).toBe(true);
      const norm = (v: unknown): Cell => (col.kind === 'ts' ? BigInt(v as bigint) : (v as Cell));
      expect(norm(stats!.min_value), `min of ${name(c)} in a row group`).toEqual(sorted[0]);
      expect(norm(stats!.max_value), `max of ${name(c)} in a row group`).toEqual(sorted.at(-1));
    });
    start += n;
  }

  // Filters DuckDB prunes with those statistics return what a scan returns.
  if (rows === 0) return;
  for (const [c, col] of columns.entries()) {
    if (col.kind === 'dec') continue;
    const values = cells[c]!;
    const sorted = [...values].sort(compareCells);
    const probes = [sorted[0]!, sorted.at(-1)!, values[Math.floor(rnd() * rows)]!, ...(col.kind === 'utf8' ? [''] : [])];
    for (const probe of probes) {
      for (const [op, keep] of [
        ['=', (d: number) => d === 0],
        ['<', (d: number) => d < 0],
        ['<=', (d: number) => d <= 0],
        ['>', (d: number) => d > 0],
        ['>=', (d: number) => d >= 0],
      ] as const) {
        const want = values.filter((v) => keep(compareCells(v, probe))).length;
        const [[got]] = (await query(`SELECT count(*)::INTEGER FROM read_parquet('${path}') WHERE ${name(c)} ${op} ${literal(col, probe)}`)) as [[number]];
        expect(got, `${name(c)} ${op} ${JSON.stringify(String(probe))}`).toBe(want);
      }
    }
  }
}

describe('direct Parquet writer, differential fuzz', () => {
  it(`reads back identically in DuckDB, hyparquet and parquet-wasm, and filters agree with a scan (${RUNS} cases, seed ${SEED})`, async () => {
    const dir = await tempDir('ql-fuzz-');
    let index = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (k) => {
        await check(k, dir, index++);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 120_000);

  it('keeps "" in the statistics: a chunk of only "" and a page that starts with ""', async () => {
    const dir = await tempDir('ql-fuzz-');
    const base: Omit<Case, 'columns' | 'rows'> = { cuts: [], rowGroupRows: 4, pageRows: 2, seed: 1, mode: 2 };
    const col: Column = { kind: 'utf8' };
    for (const values of [[''], ['', '', ''], ['', 'b', '', 'a', 'c', '']]) {
      const table = tableOf([col], [values], values.length, []);
      const bytes = encodeDirectParquet(table, new Map(), { rowGroupRows: base.rowGroupRows, createdBy: 'quotelake', pageRows: base.pageRows });
      const path = join(dir, `empty-${values.length}.parquet`);
      await writeFile(path, bytes);
      const [[got]] = (await query(`SELECT count(*)::INTEGER FROM read_parquet('${path}') WHERE c0 = ''`)) as [[number]];
      expect(got).toBe(values.filter((v) => v === '').length);
      const stats = await query(`SELECT stats_min_value, stats_max_value FROM parquet_metadata('${path}')`);
      for (const [min] of stats) expect(min).toBe('');
    }
  });

  it('refuses a decimal with more digits than its precision rather than cut it to INT32, INT64 or FIXED_LEN_BYTE_ARRAY', () => {
    for (const precision of [1, 9, 10, 18, 19, 28, 37, 38]) {
      const col: Column = { kind: 'dec', precision, scale: Math.min(2, precision) };
      const max = 10n ** BigInt(precision) - 1n;
      const write = (v: bigint) => encodeDirectParquet(tableOf([col], [[0n, v]], 2, []), new Map(), { rowGroupRows: 8, createdBy: 'quotelake' });
      expect(() => write(max)).not.toThrow();
      expect(() => write(-max)).not.toThrow();
      expect(() => write(max + 1n), `DECIMAL(${precision})`).toThrow(/does not fit DECIMAL/);
      expect(() => write(-max - 1n), `DECIMAL(${precision})`).toThrow(/does not fit DECIMAL/);
    }
  });

  it('refuses an instant beyond ±(2^53 - 1) ms, where its statistics would round', () => {
    const col: Column = { kind: 'ts' };
    expect(() => encodeDirectParquet(tableOf([col], [[MAX_SAFE + 1n]], 1, []), new Map(), { rowGroupRows: 8, createdBy: 'quotelake' })).toThrow(/beyond/);
  });
});
