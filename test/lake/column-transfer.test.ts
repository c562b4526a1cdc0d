/** Arrow columns moved to another thread: same values, each buffer moved once, small ones copied. */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Int32, makeData, RecordBatch, Struct, Table, tableToIPC, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import { datasetSchema } from '../../src/core/schemas.js';
import { packColumns, unpackColumns, type PackedData } from '../../src/lake/encode/column-transfer.js';
import { datasetSpec } from '../../src/lake/datasets/index.js';
import { KlineColumnBuilder } from '../../src/lake/datasets/kline-columns.js';
import { depthRows, haltRows, klineRows, rawKline, T0 } from '../sinks/fixtures.js';

/** The columns as IPC bytes, a Buffer (compared in one call: toEqual on 600 KB typed arrays crawls). */
function ipc(dataset: 'kline' | 'depth' | 'halt', columns: Data[], rows: number): Buffer {
  const schema = datasetSchema(dataset, DEFAULT_DECIMAL);
  return Buffer.from(tableToIPC(new Table([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children: columns }))]), 'stream'));
}

/** Through a real MessageChannel, as the encode pool sends them. */
async function send(columns: Data[]): Promise<{ received: PackedData[]; transfer: ArrayBuffer[] }> {
  const { port1, port2 } = new MessageChannel();
  try {
    const { columns: packed, transfer } = packColumns(columns);
    const received = new Promise<PackedData[]>((resolve) => (port2 as MessagePort).once('message', resolve));
    port1.postMessage(packed, transfer);
    return { received: await received, transfer };
  } finally {
    port1.close();
  }
}

function klineBuilder(n: number): KlineColumnBuilder {
  const raws = [];
  for (let i = 0; i < n; i++) raws.push(rawKline(i % 2 === 0 ? 'BTCUSDT' : 'ÄPFEL.DE', '1m', T0 + 60 * i, `${91000 + i}.${i % 100}`, i % 3 !== 0));
  const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
  for (const row of klineRows(raws)) builder.append(row);
  return builder;
}

describe('column transfer', () => {
  it('moves large buffers (each once, sub-views included) and the rebuilt columns encode identically', async () => {
    const n = 5000; // decimal columns of 80 KB: moved, not copied
    const expected = ipc('kline', klineBuilder(n).columns(), n);
    const columns = klineBuilder(n).columns();
    const decimals = columns.slice(2, 8).map((c) => c.values as Uint32Array);
    const { received, transfer } = await send(columns);
    expect(new Set(transfer).size).toBe(transfer.length);
    expect(transfer.length).toBeGreaterThanOrEqual(6);
    // The builder's decimal words went over (views over its larger, grown buffers): detached here.
    for (const words of decimals) expect(words.byteLength).toBe(0);
    const rebuilt = unpackColumns(datasetSchema('kline', DEFAULT_DECIMAL).fields, received);
    expect(ipc('kline', rebuilt, n).equals(expected)).toBe(true);
  });

  it('copies small buffers, so a pooled Buffer (shared with unrelated Buffers) stays usable', async () => {
    const neighbour = Buffer.from('neighbour');
    const text = Buffer.from('BTCUSDT'); // from Node's shared pool, like neighbour
    expect(text.buffer).toBe(neighbour.buffer);
    const column = makeData({ type: datasetSchema('kline').fields[0]!.type, length: 1, nullCount: 0, data: new Uint8Array(text.buffer, text.byteOffset, text.length), valueOffsets: new Int32Array([0, 7]) }) as Data;
    const { received, transfer } = await send([column]);
    expect(transfer).toEqual([]);
    expect(neighbour.toString()).toBe('neighbour');
    expect(Buffer.from(received[0]!.values!.buffer).toString()).toBe('BTCUSDT');
  });

  it('moves a buffer just larger than a pool slab, copies one of slab size', async () => {
    const own = makeData({ type: new Int32(), length: 2049, nullCount: 0, data: new Int32Array(2049).fill(7) }); // 8196 bytes
    const slabSized = makeData({ type: new Int32(), length: 2048, nullCount: 0, data: new Int32Array(2048).fill(9) }); // 8192 bytes
    const { received, transfer } = await send([own, slabSized]);
    expect(transfer).toEqual([own.values.buffer]);
    expect(own.values.byteLength).toBe(0); // detached: it moved
    expect(slabSized.values[0]).toBe(9);
    expect([...(received[0]!.values as Int32Array).subarray(0, 2)]).toEqual([7, 7]);
    expect((received[1]!.values as Int32Array).length).toBe(2048);
  });

  it('rebuilds nested (list<struct>) and nullable columns of depth and halt rows', async () => {
    const depth = depthRows([
      { tick: { code: '857.HK', seq: '1', tick_time: '1677830357227', bids: [{ price: '136.424', volume: '100000.00' }], asks: [{ price: '136.427' }] }, fetchedAtMs: 1677830358000 },
      { tick: { code: 'US500', seq: '2', tick_time: '1677830357301', bids: [], asks: [{ price: '4002.25' }, { price: '4002.5', volume: '3' }] }, fetchedAtMs: 1677830358000 },
    ]);
    const halt = haltRows([
      { exchange: 'nasdaq', record: { symbol: 'GOOGL', haltDateTime: '2024-01-15 13:45:00', pauseThresholdPrice: '145.50', resumeDate: '2024-01-15', resumeTime: '13:55:00', resumeDateTime: '2024-01-15 14:00:00', sourceExchange: 'NASDAQ', publishDate: '2024-01-15 13:44:30' }, fetchedAtMs: 0 },
      { exchange: 'sse', record: { symbol: '688001', haltDate: '2023-12-31', publishDate: '2023-12-30 20:15:00' }, fetchedAtMs: 0 },
    ]);
    for (const [dataset, rows] of [['depth', depth], ['halt', halt]] as const) {
      const spec = datasetSpec(dataset);
      const expected = ipc(dataset, spec.columns(rows as never, DEFAULT_DECIMAL), rows.length);
      const { received } = await send(spec.columns(rows as never, DEFAULT_DECIMAL));
      const rebuilt = unpackColumns(datasetSchema(dataset, DEFAULT_DECIMAL).fields, received);
      expect(ipc(dataset, rebuilt, rows.length).equals(expected)).toBe(true);
    }
  });

  it('refuses columns that do not match the schema', async () => {
    const { received } = await send(klineBuilder(3).columns());
    expect(() => unpackColumns(datasetSchema('trade', DEFAULT_DECIMAL).fields, received)).toThrow('expected 8 columns, got 9');
  });
});
