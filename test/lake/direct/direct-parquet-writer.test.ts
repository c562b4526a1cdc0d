/**
 * The direct Parquet writer (flat REQUIRED columns) against two independent readers: DuckDB and
 * parquet-wasm. Every value must come back as the text it was parsed from, with the same Parquet
 * schema parquet-rs writes for the same Arrow types.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Bool, Decimal, Field, makeData, RecordBatch, Schema, Struct, Table, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { datasetSchema } from '../../../src/core/schemas.js';
import type { KlineRow, TradeRow } from '../../../src/core/records.js';
import { directParquetSupports, encodeDirectParquet } from '../../../src/lake/parquet/direct/direct-parquet-writer.js';
import { decimalByteLength } from '../../../src/lake/parquet/direct/plain-columns.js';
import { parquetEncoder } from '../../../src/lake/parquet/parquet-encoder.js';
import { decimalColumnOf } from '../../../src/lake/columns/arrow-columns.js';
import { klineSpec } from '../../../src/lake/datasets/kline.js';
import { tradeSpec } from '../../../src/lake/datasets/trade.js';
import { DEFAULT_DECIMAL } from '../../../src/core/decimal.js';
import { klineRows, rawKline, T0, tradeRows } from '../../sinks/fixtures.js';
import { duck, tempDir } from '../../sinks/helpers.js';

// parquet-wasm reads (an independent reader; the default decode reads these files itself).
const reader = parquetEncoder({ rowGroupRows: 131072, writer: 'parquet-wasm' });
const OPTIONS = { rowGroupRows: 1024, createdBy: 'quotelake' };

function tableOf(schema: Schema, batches: Data[][]): Table {
  return new Table(batches.map((children) => new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: children[0]!.length, nullCount: 0, children }))));
}

async function written(bytes: Uint8Array): Promise<string> {
  const path = join(await tempDir('ql-direct-'), 'f.parquet');
  await writeFile(path, bytes);
  return path;
}

function klineSample(n: number): KlineRow[] {
  const raw = [];
  for (let i = 0; i < n; i++) {
    const code = ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT', 'XAUUSD'][i % 4]!;
    raw.push(rawKline(code, '1m', T0 + 60 * i, `${91000 + (i % 977)}.${String(i % 100).padStart(2, '0')}`, i % 3 !== 0, `123456789012345.${String(i).padStart(6, '0')}123`));
  }
  return klineRows(raw);
}

describe('direct Parquet writer', () => {
  it('writes K-lines over several Arrow batches and row groups that DuckDB and parquet-wasm read back exactly', async () => {
    const rows = klineSample(3000);
    const schema = datasetSchema('kline');
    const batches = [rows.slice(0, 700), rows.slice(700, 2500), rows.slice(2500)].map((part) => klineSpec.columns(part, DEFAULT_DECIMAL));
    const bytes = encodeDirectParquet(tableOf(schema, batches), new Map([['quotelake.dataset', 'kline']]), OPTIONS);
    const path = await written(bytes);

    expect(klineSpec.fromTable(reader.decode(bytes), 'interval=1m')).toEqual(rows.map(({ source: _source, ...r }) => r));
    const back = await duck(`select code, epoch_ms(ts)::BIGINT::VARCHAR ts, open::VARCHAR open, "close"::VARCHAR "close", turnover::VARCHAR turnover, final from read_parquet('${path}')`);
    expect(back.length).toBe(3000);
    const canonical = (v: string) => (v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v);
    expect(back.map((r) => [r.code, Number(r.ts), canonical(r.close as string), canonical(r.turnover as string), r.final])).toEqual(rows.map((r) => [r.code, r.ts, r.close, r.turnover, r.final]));
    const types = await duck(`select name, type, type_length::INT len, logical_type::VARCHAR logical from parquet_schema('${path}') where name <> 'arrow_schema'`);
    expect(types.map((t) => `${t.name} ${t.type}${t.len ? `(${t.len})` : ''}`)).toEqual([
      'code BYTE_ARRAY',
      'ts INT64',
      ...['open', 'high', 'low', 'close', 'volume', 'turnover'].map((c) => `${c} FIXED_LEN_BYTE_ARRAY(16)`),
      'final BOOLEAN',
    ]);
    const groups = await duck(`select row_group_id::INT g, row_group_num_rows::INT n, stats_min_value lo, stats_max_value hi from parquet_metadata('${path}') where path_in_schema = 'code' order by g`);
    expect(groups.map((g) => [g.n, g.lo, g.hi])).toEqual([
      [1024, 'BTCUSDT', 'XAUUSD'],
      [1024, 'BTCUSDT', 'XAUUSD'],
      [952, 'BTCUSDT', 'XAUUSD'],
    ]);
    const finals = await duck(`select stats_min_value lo, stats_max_value hi from parquet_metadata('${path}') where path_in_schema = 'final' and row_group_id = 0`);
    expect(finals).toEqual([{ lo: 'false', hi: 'true' }]);
  });

  it('reads back as the same table parquet-wasm writes, with the file metadata and the exact Arrow schema', async () => {
    const rows = klineSample(500);
    const table = tableOf(datasetSchema('kline'), [klineSpec.columns(rows, DEFAULT_DECIMAL)]);
    const metadata = new Map([['quotelake.dataset', 'kline'], ['quotelake.ts', 'bar open time (UTC)']]);
    const direct = reader.decode(encodeDirectParquet(table, metadata, OPTIONS));
    const viaWasm = reader.decode(parquetEncoder({ rowGroupRows: 1024, writer: 'parquet-wasm' }).encode(table, metadata));
    expect(direct.schema.fields.map(String)).toEqual(viaWasm.schema.fields.map(String));
    expect(direct.schema.metadata.get('quotelake.ts')).toBe('bar open time (UTC)');
    expect(klineSpec.fromTable(direct, 'interval=1m')).toEqual(klineSpec.fromTable(viaWasm, 'interval=1m'));
  });

  it('writes a sliced K-line table: value buffers from the slice, the final bitmap from its bit offset', async () => {
    const rows = klineSample(50);
    const table = tableOf(datasetSchema('kline'), [klineSpec.columns(rows, DEFAULT_DECIMAL)]).slice(3, 47);
    expect(table.batches[0]!.data.children.at(-1)!.offset).toBe(3);
    const back = klineSpec.fromTable(reader.decode(encodeDirectParquet(table, new Map(), OPTIONS)), 'interval=1m');
    expect(back).toEqual(rows.slice(3, 47).map(({ source: _source, ...r }) => r));
  });

  it('writes trades (Int8 direction, two instants) from a sliced table: Arrow offsets honoured', async () => {
    const raw = Array.from({ length: 40 }, (_, i) => ({
      fetchedAtMs: 1_763_535_600_000 + i,
      tick: { code: `C${i % 3}`, seq: String(1000 + i), tick_time: String(1_763_535_600_000 + 1000 * i), price: `-${i}.5`, volume: '0.001', turnover: '12.5', trade_direction: i % 3 },
    }));
    const rows: TradeRow[] = tradeRows(raw as never);
    const table = tableOf(datasetSchema('trade'), [tradeSpec.columns(rows, DEFAULT_DECIMAL)]).slice(5, 37);
    const bytes = encodeDirectParquet(table, new Map(), OPTIONS);
    expect(tradeSpec.fromTable(reader.decode(bytes), 'date=2025-11-19')).toEqual(rows.slice(5, 37));
    const path = await written(bytes);
    const stats = await duck(`select path_in_schema p, stats_min_value lo, stats_max_value hi from parquet_metadata('${path}') where path_in_schema in ('direction', 'seq') order by p`);
    expect(stats).toEqual([
      { p: 'direction', lo: '0', hi: '2' },
      { p: 'seq', lo: '1005', hi: '1036' },
    ]);
    const prices = await duck(`select price::VARCHAR price, direction from read_parquet('${path}') limit 2`);
    expect(prices).toEqual([
      { price: '-5.500000000000000000', direction: 2 },
      { price: '-6.500000000000000000', direction: 0 },
    ]);
  });

  it('stores each decimal precision as parquet-rs does: INT32, INT64 or the fewest fixed bytes', async () => {
    const cases: [number, number, string[]][] = [
      [9, 2, ['0', '-1.5', '9999999.99', '-9999999.99']],
      [18, 6, ['0', '-1.5', '999999999999.999999', '-999999999999.999999']],
      [20, 4, ['0', '-1.5', '9999999999999999.9999', '-9999999999999999.9999']],
      [38, 18, ['0', '-1.5', '99999999999999999999.999999999999999999', '-99999999999999999999.999999999999999999']],
    ];
    const fields = cases.map(([p, s]) => new Field(`d${p}`, new Decimal(s, p, 128), false));
    const schema = new Schema([...fields, new Field('b', new Bool(), false)]);
    const values = (k: number) => cases[k]![2];
    const columns = cases.map(([p, s], k) => decimalColumnOf(new Decimal(s, p, 128), values(k), (v) => v, `d${p}`));
    const bools = makeData({ type: new Bool(), length: 4, nullCount: 0, data: Uint8Array.of(0b0101) });
    const path = await written(encodeDirectParquet(tableOf(schema, [[...columns, bools]]), new Map(), OPTIONS));
    const types = await duck(`select name, type, type_length::INT len from parquet_schema('${path}') where name like 'd%' order by name`);
    expect(types).toEqual([
      { name: 'd18', type: 'INT64', len: null },
      { name: 'd20', type: 'FIXED_LEN_BYTE_ARRAY', len: decimalByteLength(20) },
      { name: 'd38', type: 'FIXED_LEN_BYTE_ARRAY', len: 16 },
      { name: 'd9', type: 'INT32', len: null },
    ]);
    expect(decimalByteLength(20)).toBe(9);
    const back = await duck(`select d9::VARCHAR a, d18::VARCHAR b, d20::VARCHAR c, d38::VARCHAR d, b flag from read_parquet('${path}')`);
    const trim = (v: unknown) => String(v).replace(/\.?0+$/, '') || '0';
    expect(back.map((r) => [trim(r.a), trim(r.b), trim(r.c), trim(r.d), r.flag])).toEqual([0, 1, 2, 3].map((i) => [...cases.map((c) => c[2][i]), i % 2 === 0]));
  });

  it('writes an empty table as a valid file of no row groups', async () => {
    const path = await written(encodeDirectParquet(tableOf(datasetSchema('kline'), [klineSpec.columns([], DEFAULT_DECIMAL)]), new Map(), OPTIONS));
    expect(await duck(`select count(*)::INT n from read_parquet('${path}')`)).toEqual([{ n: 0 }]);
  });

  it('takes flat REQUIRED schemas only (depth and halt go through parquet-wasm)', () => {
    expect(directParquetSupports(datasetSchema('kline'))).toBe(true);
    expect(directParquetSupports(datasetSchema('trade'))).toBe(true);
    expect(directParquetSupports(datasetSchema('depth'))).toBe(false);
    expect(directParquetSupports(datasetSchema('halt'))).toBe(false);
  });
});
