import { makeData, RecordBatch, Struct, Table, tableToIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { KlineRow } from '../../src/core/records.js';
import { datasetSchema } from '../../src/core/schemas.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { KlineColumnBuilder } from '../../src/lake/datasets/kline-columns.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { BIG_TURNOVER, klineRows, rawKline, SHIB_CLOSE } from '../sinks/fixtures.js';

const T0 = 1763510400;

function sample(n: number, run = 1): KlineRow[] {
  const raws = [];
  for (let i = 0; i < n; i++) {
    const code = ['BTCUSDT', 'SHIBUSDT', 'ÄPFEL.DE', '700.HK'][Math.floor(i / run) % 4]!;
    const close = i % 4 === 1 ? SHIB_CLOSE : i % 7 === 0 ? '-12.5' : `${91000 + i}.${i % 100}`;
    raws.push(rawKline(code, i % 3 === 0 ? '5m' : '1m', T0 + 60 * i, close, i % 5 !== 0, i % 6 === 0 ? BIG_TURNOVER : '1175337.4468315'));
  }
  const rows = klineRows(raws);
  // a row without a source endpoint, and a second endpoint
  return rows.map((r, i) => (i === 3 ? { ...r, source: undefined } : i === 5 ? { ...r, source: '/batch-kline' } : r));
}

/** The IPC stream of the columns, as a hex string: compared whole in one step (element-wise equality of a large byte array is slow). */
function ipc(columns: ReturnType<KlineColumnBuilder['columns']>, n: number): string {
  const schema = datasetSchema('kline', DEFAULT_DECIMAL);
  const bytes = tableToIPC(new Table([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children: columns }))]), 'stream');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

describe('KlineColumnBuilder', () => {
  it('builds the same Arrow columns and metadata as the row path, across growth', () => {
    const rows = sample(4500, 7); // past two doublings of the first capacity; codes in runs, as pages arrive
    const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
    for (const row of rows) builder.append(row);
    expect(builder.length).toBe(4500);
    // The row path gets plain copies (no carried words), so it parses every decimal's text.
    const plain = rows.map((r) => ({ ...r }));
    expect(ipc(builder.columns(), rows.length)).toBe(ipc(klineSpec.columns(plain, DEFAULT_DECIMAL), rows.length));
    expect(ipc(klineSpec.columns(rows, DEFAULT_DECIMAL), rows.length)).toBe(ipc(klineSpec.columns(plain, DEFAULT_DECIMAL), rows.length));
    expect(builder.metadata()).toEqual(klineSpec.metadata(rows));
    expect(builder.metadata()['quotelake.source_endpoint']).toBe('/batch-kline,/kline');
  });

  it('rebuilds the appended rows exactly (values, flags, source)', () => {
    const rows = sample(40);
    const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
    for (const row of rows) builder.append(row);
    const strip = (r: KlineRow) => JSON.parse(JSON.stringify(r)) as unknown;
    expect(builder.rows().map(strip)).toEqual(rows.map(strip));
  });

  it('refuses a value that does not fit the sink decimal and keeps its earlier rows', () => {
    const builder = new KlineColumnBuilder({ precision: 38, scale: 8 });
    const [ok, bad] = klineRows([rawKline('BTCUSDT', '1m', T0, '91000.5'), rawKline('BTCUSDT', '1m', T0 + 60, '0.000000001')]);
    builder.append(ok!);
    expect(() => builder.append(bad!)).toThrow(/column open: value "0.000000001" does not fit DECIMAL\(38,8\)/);
    expect(builder.length).toBe(1);
    expect(builder.rows()[0]!.close).toBe('91000.5');
  });

  it('a builder on chunks given back by an earlier one writes only its own rows, and is used once', () => {
    const first = new KlineColumnBuilder(DEFAULT_DECIMAL);
    for (const row of sample(9000, 3)) first.append(row);
    first.columns(); // its chunks go back to the pool, full of its rows
    const rows = sample(5000, 11).map((r) => ({ ...r, close: '7.25', final: false }));
    const second = new KlineColumnBuilder(DEFAULT_DECIMAL);
    for (const row of rows) second.append(row);
    expect(second.rows().map((r) => [r.close, r.final])).toEqual(rows.map(() => ['7.25', false]));
    expect(ipc(second.columns(), rows.length)).toBe(ipc(klineSpec.columns(rows, DEFAULT_DECIMAL), rows.length));
    expect(() => second.columns()).toThrow(/called twice/);
    expect(() => second.append(rows[0]!)).toThrow(/after columns/);
  });

  it('uses the words a row carries only while they still describe it', () => {
    const [row] = klineRows([rawKline('BTCUSDT', '1m', T0, '91000.5')]);
    // A transform that rewrites a row makes a copy, which carries no words: the new text is written.
    const rewritten: KlineRow = { ...row!, close: '1.25' };
    const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
    builder.append(row!);
    builder.append(rewritten);
    expect(builder.rows().map((r) => r.close)).toEqual(['91000.5', '1.25']);
    // A sink at another scale than the transform parsed at converts the text itself.
    const narrow = new KlineColumnBuilder({ precision: 30, scale: 8 });
    narrow.append(row!);
    expect(narrow.rows()[0]!.close).toBe('91000.5');
    expect(ipc(narrow.columns(), 1)).toBe(ipc(klineSpec.columns([{ ...row! }], { precision: 30, scale: 8 }), 1));
  });

  it('a row that reaches the builder after its words buffer was reused converts its text', () => {
    const [early] = klineRows([rawKline('BTCUSDT', '1m', T0, '91000.5', true, BIG_TURNOVER)]);
    const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
    builder.append(early!);
    // Enough later batches to hand every reusable words buffer out again, with other values.
    for (let k = 0; k < 40; k++) klineRows([rawKline('ETHUSDT', '1m', T0, `${k}.25`, true, '1')]);
    builder.append(early!);
    expect(builder.rows().map((r) => [r.close, r.turnover])).toEqual([
      ['91000.5', BIG_TURNOVER],
      ['91000.5', BIG_TURNOVER],
    ]);
  });

  it('an empty builder gives empty columns and the default endpoint', () => {
    const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
    expect(builder.columns().map((c) => c.length)).toEqual(new Array(9).fill(0));
    expect(builder.metadata()['quotelake.source_endpoint']).toBe('/kline');
  });
});

describe('klineSpec.fromTable', () => {
  it('reads rows back exactly from a Parquet round trip of several record batches', () => {
    // One partition's rows: the interval lives in the partition path, not in the file.
    const rows = sample(150).map((r) => ({ ...r, interval: '1m' as const }));
    const schema = datasetSchema('kline', DEFAULT_DECIMAL);
    const batch = (part: KlineRow[]) =>
      new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: part.length, nullCount: 0, children: klineSpec.columns(part, DEFAULT_DECIMAL) }));
    const table = new Table([batch(rows.slice(0, 100)), batch(rows.slice(100))]);
    const encoder = parquetEncoder({ rowGroupRows: 64 }); // several row groups, so several batches on read
    const back = klineSpec.fromTable(encoder.decode(encoder.encode(table, new Map())), 'interval=1m');
    const strip = ({ source: _source, ...r }: KlineRow) => r;
    expect(back).toEqual(rows.map(strip));
    expect(klineSpec.fromTable(table, 'interval=1m')).toEqual(rows.map(strip));
  });
});
