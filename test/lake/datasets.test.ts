/** trade, depth and halt through the parquet and arrow sinks, read back exactly. */
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sink } from '../../src/core/component.js';
import { arrowSink } from '../../src/sinks/arrow/index.js';
import { parquetSink } from '../../src/sinks/parquet/index.js';
import { datasetSpec } from '../../src/lake/datasets/index.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { depthRows, haltRows, tradeRows } from '../sinks/fixtures.js';
import { duck, runContext, sinkEnv, tempDir } from '../sinks/helpers.js';

const trades = () =>
  tradeRows([
    { tick: { code: 'SHIBUSDT', seq: '30841439', tick_time: '1677831545217', price: '0.000018712345600000', volume: '100000000', turnover: '1871.23456', trade_direction: 1 }, fetchedAtMs: 1677831546000 },
    { tick: { code: 'UNH.US', seq: '30841440', tick_time: '1677831545380', price: '481.15', volume: '200', turnover: '123456789012345.123456789012345678', trade_direction: 2 }, fetchedAtMs: 1677831546000 },
  ]);
const depths = () =>
  depthRows([
    { tick: { code: '857.HK', seq: '30686349', tick_time: '1677830357227', bids: [{ price: '136.424', volume: '100000.00' }], asks: [{ price: '136.427', volume: '400000.00' }] }, fetchedAtMs: 1677830358000 },
    { tick: { code: 'US500', seq: '30686350', tick_time: '1677830357301', bids: [], asks: [{ price: '4002.25' }] }, fetchedAtMs: 1677830358000 },
  ]);
const halts = () =>
  haltRows([
    { exchange: 'nasdaq', record: { symbol: 'GOOGL', haltDateTime: '2024-01-15 13:45:00', pauseThresholdPrice: '145.50', resumeDate: '2024-01-15', resumeTime: '13:55:00', resumeDateTime: '2024-01-15 14:00:00', sourceExchange: 'NASDAQ', publishDate: '2024-01-15 13:44:30' }, fetchedAtMs: 0 },
    { exchange: 'sse', record: { symbol: '688001', haltDate: '2023-12-31', publishDate: '2023-12-30 20:15:00' }, fetchedAtMs: 0 },
  ]);

async function writeWith(out: string, dataset: string, rows: object[], type: 'parquet' | 'arrow' = 'parquet', encodeWorkers = 1) {
  const sink = (type === 'parquet' ? parquetSink.create(parquetSink.configSchema.parse({ encodeWorkers, encodeWorkersAfterRows: 0 }), sinkEnv(out, dataset)) : arrowSink.create(arrowSink.configSchema.parse({}), sinkEnv(out, dataset))) as Sink<object>;
  const ctx = runContext('r1');
  try {
    await sink.write({ stream: dataset, seq: 1, records: rows }, ctx);
    return await sink.commit(ctx);
  } finally {
    await sink.close();
  }
}

describe.each([
  ['encoded in a worker', 1],
  ['encoded on the calling thread', 0],
])('trade, depth and halt datasets (parquet %s)', (_mode, workers) => {
  const write = (out: string, dataset: string, rows: object[]) => writeWith(out, dataset, rows, 'parquet', workers);

  it('trade: DuckDB reads exact decimals, int8 direction, UTC instants', async () => {
    const out = await tempDir();
    const receipt = await write(out, 'trade', trades());
    expect(receipt.files.map((f) => f.path)).toEqual(['trade/date=2023-03-03/part-r1-00001.parquet']);
    const got = await duck(`select code, seq, ts::varchar ts, price::varchar price, turnover::varchar t, typeof(direction) dt, direction, fetched_at::varchar f, "date"::varchar d from read_parquet('${out}/trade/**/*.parquet', hive_partitioning=true) order by seq`);
    expect(got).toEqual([
      { code: 'SHIBUSDT', seq: '30841439', ts: '2023-03-03 08:19:05.217+00', price: '0.000018712345600000', t: '1871.234560000000000000', dt: 'TINYINT', direction: 1, f: '2023-03-03 08:19:06+00', d: '2023-03-03' },
      { code: 'UNH.US', seq: '30841440', ts: '2023-03-03 08:19:05.38+00', price: '481.150000000000000000', t: '123456789012345.123456789012345678', dt: 'TINYINT', direction: 2, f: '2023-03-03 08:19:06+00', d: '2023-03-03' },
    ]);
  });

  it('depth: list<struct<price, volume nullable>> reads back', async () => {
    const out = await tempDir();
    await write(out, 'depth', depths());
    const got = await duck(`select code, seq, bids::varchar b, asks::varchar a, typeof(asks) t from read_parquet('${out}/depth/**/*.parquet', hive_partitioning=true) order by seq`);
    expect(got).toEqual([
      { code: '857.HK', seq: '30686349', b: "[{'price': 136.424000000000000000, 'volume': 100000.000000000000000000}]", a: "[{'price': 136.427000000000000000, 'volume': 400000.000000000000000000}]", t: 'STRUCT(price DECIMAL(38,18), volume DECIMAL(38,18))[]' },
      { code: 'US500', seq: '30686350', b: '[]', a: "[{'price': 4002.250000000000000000, 'volume': NULL}]", t: 'STRUCT(price DECIMAL(38,18), volume DECIMAL(38,18))[]' },
    ]);
  });

  it('halt: partitioned by exchange and year (of halt_at, else published_at), nulls kept', async () => {
    const out = await tempDir();
    const receipt = await write(out, 'halt', halts());
    expect(receipt.files.map((f) => f.path).sort()).toEqual(['halt/exchange=nasdaq/year=2024/part-r1-00001.parquet', 'halt/exchange=sse/year=2023/part-r1-00002.parquet']);
    const got = await duck(`select exchange, symbol, halt_at::varchar h, halt_local, resume_quote_at::varchar q, resume_trade_at::varchar t, pause_threshold_price::varchar p, published_at::varchar pub, published_local, "year"::varchar y from read_parquet('${out}/halt/**/*.parquet', hive_partitioning=true) order by symbol`);
    expect(got).toEqual([
      { exchange: 'sse', symbol: '688001', h: null, halt_local: '2023-12-31', q: null, t: null, p: null, pub: '2023-12-30 12:15:00+00', published_local: '2023-12-30 20:15:00', y: '2023' },
      { exchange: 'nasdaq', symbol: 'GOOGL', h: '2024-01-15 18:45:00+00', halt_local: '2024-01-15 13:45:00', q: '2024-01-15 18:55:00+00', t: '2024-01-15 19:00:00+00', p: '145.500000000000000000', pub: '2024-01-15 18:44:30+00', published_local: '2024-01-15 13:44:30', y: '2024' },
    ]);
    // writing the same halts again merges (halt partitions always merge): still two rows
    const again = await write(out, 'halt', halts());
    expect(again.rows).toBe(2);
    // A reader following the manifest; a glob also sees the replaced files for the grace period.
    const manifest = JSON.parse(await readFile(join(out, '_quotelake/manifests/halt.parquet.json'), 'utf8')) as { files: { path: string }[]; retired: unknown[] };
    const n = await duck(`select count(*)::int n from read_parquet([${manifest.files.map((f) => `'${join(out, 'halt', f.path)}'`).join(', ')}])`);
    expect(n).toEqual([{ n: 2 }]);
    expect(manifest.retired.length).toBe(2);
  });

});

describe('trade, depth and halt datasets (arrow)', () => {
  it.each(['trade', 'depth', 'halt'] as const)('%s round-trips through the arrow sink unchanged', async (dataset) => {
    const out = await tempDir();
    const rows = dataset === 'trade' ? trades() : dataset === 'depth' ? depths() : halts();
    const receipt = await writeWith(out, dataset, rows, 'arrow');
    const back = [];
    for (const f of receipt.files) back.push(...datasetSpec(dataset).fromTable(arrowEncoder().decode(await readFile(join(out, f.path))), posix.dirname(f.path.slice(dataset.length + 1))));
    const key = (r: object) => JSON.stringify(r);
    expect(back.map(key).sort()).toEqual(rows.map(key).sort());
  });
});
