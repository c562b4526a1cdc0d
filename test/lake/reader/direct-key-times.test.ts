/**
 * The coverage audit's reader of key and time columns: for the files quotelake writes it decodes
 * the two column chunks itself (direct-key-times.ts) and must give exactly what the rows hold, over
 * several row groups and pages, milliseconds and a Delta table's microseconds, a key that changes
 * every row and keys in runs; any other file (dictionary pages, written by parquet-wasm) it leaves
 * to hyparquet, through the same readKeyTimes.
 */
import { Field, makeData, RecordBatch, Schema, Struct, Table, TimestampMillisecond, Utf8, vectorFromArray } from 'apache-arrow';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../../src/core/decimal.js';
import type { KlineRow } from '../../../src/core/records.js';
import { datasetSchema } from '../../../src/core/schemas.js';
import { klineSpec } from '../../../src/lake/datasets/kline.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { directKeyTimes } from '../../../src/lake/reader/direct-key-times.js';
import { readKeyTimes } from '../../../src/lake/reader/file-key-times.js';
import type { LakeFile } from '../../../src/lake/reader/lake-files.js';
import { readParquetMetadata } from '../../../src/lake/reader/parquet-footer.js';
import { withRangeFile } from '../../../src/lake/reader/range-file.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { klineRows, rawKline, T0 } from '../../sinks/fixtures.js';
import { tempDir } from '../../sinks/helpers.js';

const CODES = ['BTCUSDT', 'EURUSD', 'GOLD', 'Silver'];

/** `n` bars: the code changing every row (interleaved) or in runs of 500 (as a sorted file holds them). */
function klines(n: number, interleaved: boolean): KlineRow[] {
  return klineRows(
    Array.from({ length: n }, (_, i) => {
      const code = CODES[interleaved ? i % CODES.length : Math.floor(i / 500) % CODES.length]!;
      // Some years apart: instants whose high 32 bits differ.
      return rawKline(code, '1m', T0 - 60 * 1700 + 60 * i - (i % 7 === 0 ? 400_000_000 : 0), `${100 + i}.5`);
    }),
  );
}

function table(rows: readonly KlineRow[]): Table {
  const schema = datasetSchema('kline');
  return new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children: klineSpec.columns(rows, DEFAULT_DECIMAL) }))]);
}

async function lakeFile(dir: string, name: string, bytes: Uint8Array): Promise<LakeFile> {
  await writeFile(join(dir, name), bytes);
  const storage = localStorage(dir);
  const listed = { path: name, rows: 0, bytes: bytes.length, runId: 'r', committedAt: '' } as unknown as LakeFile['listed'];
  return { dataset: 'kline', format: 'parquet', path: name, storage, key: name, absPath: join(dir, name), partition: '', hive: {}, listed };
}

describe('readKeyTimes of a Parquet file', () => {
  it('reads the files quotelake writes itself, exactly: row groups, pages, ms and µs, keys interleaved or in runs', async () => {
    const dir = await tempDir();
    for (const unit of ['ms', 'us'] as const) {
      for (const interleaved of [true, false]) {
        const rows = klines(2600, interleaved);
        const bytes = parquetEncoder({ rowGroupRows: 1024, ...(unit === 'us' ? { timestampUnit: unit } : {}) }).encode(table(rows), new Map());
        const file = await lakeFile(dir, `${unit}-${interleaved}.parquet`, bytes);
        const direct = await withRangeFile(file.storage, file.key, async (range) => directKeyTimes(range, await readParquetMetadata(range), 'code', 'ts'));
        expect(direct, `${unit} ${interleaved}`).toBeDefined();
        expect(direct!.keys).toEqual(rows.map((r) => r.code));
        expect([...direct!.times]).toEqual(rows.map((r) => r.ts));
        const timesOnly = await readKeyTimes(file, null, 'ts');
        expect(timesOnly.keys).toBeNull();
        expect([...timesOnly.times]).toEqual(rows.map((r) => r.ts));
      }
    }
  });

  it('leaves a file it does not read (nullable columns, as another tool may write them) to hyparquet, with the same answer', async () => {
    const dir = await tempDir();
    const schema = new Schema([new Field('code', new Utf8(), true), new Field('ts', new TimestampMillisecond(), true)]);
    const codes = ['BTCUSDT', null, 'GOLD', 'GOLD'];
    const times = [1763510400000, 1763510460000, null, 1763510520000];
    const children = [vectorFromArray(codes, new Utf8()).data[0]!, vectorFromArray(times, new TimestampMillisecond()).data[0]!];
    const bytes = parquetEncoder({ rowGroupRows: 1024, writer: 'parquet-wasm' }).encode(new Table([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 4, nullCount: 0, children }))]), new Map());
    const file = await lakeFile(dir, 'nullable.parquet', bytes);
    expect(await withRangeFile(file.storage, file.key, async (range) => directKeyTimes(range, await readParquetMetadata(range), 'code', 'ts'))).toBeUndefined();
    const read = await readKeyTimes(file, 'code', 'ts');
    expect(read.keys).toEqual(['BTCUSDT', 'null', 'GOLD', 'GOLD']);
    expect([...read.times]).toEqual([1763510400000, 1763510460000, Number.NaN, 1763510520000]);
  });
});
