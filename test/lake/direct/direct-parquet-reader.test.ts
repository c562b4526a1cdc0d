/**
 * quotelake's own reader of the direct writer's files (what merges and compactions read): exact
 * K-lines back, the same table as parquet-wasm gives, and no answer (so parquet-wasm reads it) for a
 * file of another shape. The differential fuzz test (direct-parquet-fuzz.test.ts) holds it to the
 * other readers over random tables.
 */
import { Field, Int32, makeData, RecordBatch, Schema, Struct, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../../src/core/decimal.js';
import type { KlineRow } from '../../../src/core/records.js';
import { datasetSchema } from '../../../src/core/schemas.js';
import { klineSpec } from '../../../src/lake/datasets/kline.js';
import { decodeDirectParquet } from '../../../src/lake/parquet/direct/direct-parquet-reader.js';
import { encodeDirectParquet } from '../../../src/lake/parquet/direct/direct-parquet-writer.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { klineRows, rawKline, T0 } from '../../sinks/fixtures.js';

const wasm = parquetEncoder({ rowGroupRows: 1024, writer: 'parquet-wasm' });

function klines(n: number): KlineRow[] {
  const raw = [];
  for (let i = 0; i < n; i++) {
    const code = ['BTCUSDT', 'EURUSD', 'GOLD'][i % 3]!;
    // Negative, tiny and 15-integer-digit decimals: every byte of the 16-byte form is used.
    const close = i % 5 === 0 ? `-0.${String(i).padStart(18, '0')}` : `${91000 + i}.${String(i % 100).padStart(2, '0')}`;
    raw.push(rawKline(code, '1m', T0 + 60 * i, close, i % 4 !== 0, `123456789012345.${String(i).padStart(6, '0')}123`));
  }
  return klineRows(raw);
}

function klineTable(rows: readonly KlineRow[], cuts: readonly number[]): Table {
  const schema = datasetSchema('kline');
  const bounds = [0, ...cuts, rows.length];
  const batches = bounds.slice(1).map((end, b) => {
    const children = klineSpec.columns(rows.slice(bounds[b], end), DEFAULT_DECIMAL);
    return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: end - bounds[b]!, nullCount: 0, children }));
  });
  return new Table(schema, batches);
}

describe('direct Parquet reader', () => {
  it('reads K-lines of several row groups and uneven pages back exactly, as the same table parquet-wasm gives', () => {
    const rows = klines(2500);
    const metadata = new Map([['quotelake.dataset', 'kline'], ['quotelake.series', '{"x":1}']]);
    // 333-row pages: boolean pages that end mid-byte, pages spanning Arrow batches.
    const bytes = encodeDirectParquet(klineTable(rows, [700, 701, 1900]), metadata, { rowGroupRows: 1000, createdBy: 'quotelake', pageRows: 333 });
    const direct = decodeDirectParquet(bytes)!;
    expect(direct).toBeDefined();
    expect(direct.batches.map((b) => b.numRows)).toEqual([1000, 1000, 500]);
    expect(klineSpec.fromTable(direct, 'interval=1m')).toEqual(rows.map(({ source: _source, ...r }) => r));
    const viaWasm = wasm.decode(bytes);
    expect(direct.schema.fields.map(String)).toEqual(viaWasm.schema.fields.map(String));
    expect(new Map(direct.schema.metadata)).toEqual(new Map(viaWasm.schema.metadata));
    expect(new Map(direct.schema.metadata)).toEqual(metadata);
    expect(klineSpec.fromTable(direct, 'interval=1m')).toEqual(klineSpec.fromTable(viaWasm, 'interval=1m'));
  });

  it('reads a file with no rows', () => {
    const bytes = encodeDirectParquet(klineTable([], []), new Map(), { rowGroupRows: 1000, createdBy: 'quotelake' });
    const table = decodeDirectParquet(bytes)!;
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.map((f) => f.name)).toEqual(datasetSchema('kline').fields.map((f) => f.name));
  });

  it('leaves a file of another shape (nullable columns, written by parquet-wasm) to parquet-wasm', () => {
    const schema = new Schema([new Field('symbol', new Utf8(), true), new Field('n', new Int32(), true)]);
    const symbol = vectorFromArray(['A', null, 'C'], new Utf8()).data[0]!;
    const n = vectorFromArray([1, 2, null], new Int32()).data[0]!;
    const table = new Table([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 3, nullCount: 0, children: [symbol, n] }))]);
    const bytes = wasm.encode(table, new Map([['quotelake.dataset', 'halt']]));
    expect(decodeDirectParquet(bytes)).toBeUndefined();
    // The encoder's decode still reads it (through parquet-wasm).
    const back = parquetEncoder({ rowGroupRows: 1024 }).decode(bytes);
    expect(back.getChild('symbol')!.toArray()).toEqual(['A', null, 'C']);
  });

  it('answers undefined for bytes that are not a Parquet file it knows', () => {
    expect(decodeDirectParquet(new Uint8Array(4))).toBeUndefined();
  });
});
