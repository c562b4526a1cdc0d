import { Bool, DataType, Decimal, Float64, Int8, makeData, makeVector, RecordBatch, Struct, Table, TimestampMillisecond, Utf8, vectorFromArray, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/mulberry32.js';
import type { KlineRow, TradeRow } from '../../src/core/records.js';
import { datasetSchema } from '../../src/core/schemas.js';
import { dedupedOrder, keyColumns, picksOf, rangesAndSeries } from '../../src/lake/commit/columnar-keys.js';
import { takeable, takeRows } from '../../src/lake/columns/take-rows.js';
import { compareOrder, type DatasetSpec } from '../../src/lake/datasets/dataset-spec.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { KlineColumnBuilder } from '../../src/lake/datasets/kline-columns.js';
import { tradeSpec } from '../../src/lake/datasets/trade.js';
import { formatSeries, seriesOfRows } from '../../src/lake/series-stats.js';
import { klineRows, rawKline } from '../sinks/fixtures.js';

const PARTITION = 'interval=1m/year=2026/date=2026-11-19';
const T0 = Date.parse('2026-11-19T00:00:00Z') / 1000;

/** What the row path does: fold each key in arrival order with prefer(), then sort by group and order. */
function rowPath<R>(spec: DatasetSpec<R>, rows: readonly R[]): R[] {
  const byKey = new Map<string, R>();
  for (const row of rows) {
    const key = `${spec.group(row)}\u0001${spec.order(row)}`;
    const older = byKey.get(key);
    byKey.set(key, older !== undefined && spec.prefer ? spec.prefer(older, row) : row);
  }
  return [...byKey.values()].sort((a, b) => {
    const ga = spec.group(a);
    const gb = spec.group(b);
    return ga < gb ? -1 : ga > gb ? 1 : compareOrder(spec.order(a), spec.order(b));
  });
}

function batchOf(dataset: 'kline' | 'trade', columns: Data[], length: number): RecordBatch {
  const schema = datasetSchema(dataset, DEFAULT_DECIMAL);
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children: columns }));
}

/** The columnar path end to end: keys, survivors, gathered columns, read back as rows. */
function columnarPath<R>(spec: DatasetSpec<R>, dataset: 'kline' | 'trade', batches: RecordBatch[]) {
  const keys = keyColumns(batches, spec.columnarKeys!);
  const kept = dedupedOrder(keys);
  const schema = datasetSchema(dataset, DEFAULT_DECIMAL);
  const columns = schema.fields.map((_, c) => takeRows(batches.map((b) => b.data.children[c]!), picksOf(keys, kept)));
  const rows = spec.fromTable(new Table([batchOf(dataset, columns, kept.length)]), PARTITION);
  return { rows, ...rangesAndSeries(keys, kept) };
}

/**
 * Pages of a backward walk: newest first, each ascending, overlapping by a few bars, re-sent bars
 * forming or final; or, with `overlap` false, pages that neither overlap nor touch (the real walk).
 */
function walkedPages(random: () => number, overlap = true): KlineRow[][] {
  const pages: KlineRow[][] = [];
  for (const code of ['ETHUSDT', 'BTCUSDT', 'ÄPFEL.DE']) {
    let end = 600;
    while (end > 0) {
      const size = 1 + Math.floor(random() * 120);
      const raws = [];
      const from = overlap ? Math.max(0, end - size - Math.floor(random() * 4)) : Math.max(0, end - size);
      const to = overlap ? end + Math.floor(random() * 3) : end;
      for (let m = from; m < to; m++) {
        const close = `${(91000 + m + random()).toFixed(1 + Math.floor(random() * 8))}`;
        raws.push(rawKline(code, '1m', T0 + 60 * m, random() < 0.1 ? '-0.000000000000000001' : close, random() < 0.8));
      }
      pages.push(klineRows(raws));
      end -= size;
    }
  }
  return pages;
}

describe('columnar de-duplication (pages in any order, no row objects)', () => {
  it('keeps exactly the rows the row path keeps, in the same order, for K-lines over one or many chunks', () => {
    for (const seed of [1, 2, 3, 4]) {
      const random = mulberry32(seed);
      const pages = walkedPages(random);
      const all = pages.flat();
      // One builder (a flushed buffer), and the same rows split over files (a merge).
      const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
      for (const row of all) builder.append(row);
      const one = columnarPath(klineSpec, 'kline', [batchOf('kline', builder.columns(), all.length)]);
      const chunks = pages.map((page) => batchOf('kline', klineSpec.columns(page, DEFAULT_DECIMAL), page.length));
      const many = columnarPath(klineSpec, 'kline', chunks);
      const expected = rowPath(klineSpec, all).map(({ source: _, ...row }) => ({ ...row }));
      expect(one.rows).toEqual(expected);
      expect(many.rows).toEqual(expected);
      const series = seriesOfRows(expected, (r) => r.code, (r) => r.ts);
      expect(formatSeries(one.series)).toBe(formatSeries(series));
      expect(formatSeries(many.series)).toBe(formatSeries(series));
      for (const code of ['ETHUSDT', 'BTCUSDT', 'ÄPFEL.DE']) {
        const own = expected.filter((r) => r.code === code).map((r) => r.ts);
        expect(one.ranges[code]).toEqual([own[0], own.at(-1)]);
      }
    }
  });

  it('pages that neither overlap nor touch, in any order of codes and pages: every row kept, in key order, as the row path', () => {
    for (const seed of [5, 6, 7]) {
      const random = mulberry32(seed);
      const pages = walkedPages(random, false);
      // Codes interleaved page by page, and one partition's pages shuffled.
      const shuffled = seed === 7 ? [...pages].sort(() => random() - 0.5) : pages.map((_, i) => pages[(i * 7) % pages.length]!);
      const all = shuffled.flat();
      const builder = new KlineColumnBuilder(DEFAULT_DECIMAL);
      for (const row of all) builder.append(row);
      const got = columnarPath(klineSpec, 'kline', [batchOf('kline', builder.columns(), all.length)]);
      const expected = rowPath(klineSpec, all).map(({ source: _, ...row }) => ({ ...row }));
      expect(expected).toHaveLength(all.length);
      expect(got.rows).toEqual(expected);
      // The time runs the manifest lists stand for each code's bars in file order.
      for (const code of new Set(all.map((r) => r.code))) {
        const runs = got.times![code]!.flatMap(([first, step, count]) => Array.from({ length: count }, (_, k) => first + step * k));
        expect(runs).toEqual(got.rows.filter((r) => r.code === code).map((r) => r.ts));
      }
    }
    // Two pages that touch (one bar sent twice, forming then final, the final arriving first): one row, the final one.
    const page = (ms: number[], final: boolean) => klineRows(ms.map((m) => rawKline('BTCUSDT', '1m', T0 + 60 * m, `${m}.${final ? 1 : 2}`, final)));
    const touching = [...page([10, 11, 12], true), ...page([12, 13, 14], false), ...page([5, 6, 7], true)];
    const batch = batchOf('kline', klineSpec.columns(touching, DEFAULT_DECIMAL), touching.length);
    expect(columnarPath(klineSpec, 'kline', [batch]).rows.map((r) => [(r.ts / 1000 - T0) / 60, r.close])).toEqual([
      [5, '5.1'],
      [6, '6.1'],
      [7, '7.1'],
      [10, '10.1'],
      [11, '11.1'],
      [12, '12.1'],
      [13, '13.2'],
      [14, '14.2'],
    ]);
  });

  it('a final bar is never replaced by a forming one that arrives later; a later final one wins', () => {
    const at = (close: string, final: boolean) => klineRows([rawKline('BTCUSDT', '1m', T0, close, final)])[0]!;
    const arrivals = [at('1.5', false), at('2.5', true), at('3.5', false), at('4.5', true), at('5.5', false)];
    const batch = batchOf('kline', klineSpec.columns(arrivals, DEFAULT_DECIMAL), arrivals.length);
    expect(columnarPath(klineSpec, 'kline', [batch]).rows.map((r) => [r.close, r.final])).toEqual([['4.5', true]]);
  });

  it('orders trades by sequence number as digits (length, then text), the later arrival winning', () => {
    const trade = (code: string, seq: string, price: string): TradeRow => ({
      code,
      ts: Date.parse('2026-11-19T10:00:00Z') + Number(seq.slice(-3)),
      seq,
      price,
      volume: '1',
      turnover: price,
      direction: 1,
      fetched_at: Date.parse('2026-11-19T10:05:00Z'),
    });
    const rows = [trade('AAPL.US', '100', '1.1'), trade('AAPL.US', '99', '1.2'), trade('700.HK', '1000', '3'), trade('AAPL.US', '100', '1.3'), trade('AAPL.US', '18446744073709551617', '9')];
    const batch = batchOf('trade', tradeSpec.columns(rows, DEFAULT_DECIMAL), rows.length);
    const out = columnarPath(tradeSpec, 'trade', [batch]);
    const kept = rowPath(tradeSpec, rows);
    expect(out.rows).toEqual(tradeSpec.fromTable(new Table([batchOf('trade', tradeSpec.columns(kept, DEFAULT_DECIMAL), kept.length)]), PARTITION));
    expect(out.rows.map((r) => [r.code, r.seq])).toEqual([['700.HK', '1000'], ['AAPL.US', '99'], ['AAPL.US', '100'], ['AAPL.US', '18446744073709551617']]);
    expect(out.rows[2]!.price).toBe('1.3');
    expect(out.ranges['AAPL.US']).toEqual(['99', '18446744073709551617']);
  });

  it('copies nulls, sliced inputs and every flat type bit for bit, and says which schemas are flat', () => {
    expect(takeable(datasetSchema('kline', DEFAULT_DECIMAL).fields)).toBe(true);
    expect(takeable(datasetSchema('trade', DEFAULT_DECIMAL).fields)).toBe(true);
    expect(takeable(datasetSchema('halt', DEFAULT_DECIMAL).fields)).toBe(true);
    // Order book levels are lists of structs: the row path.
    expect(takeable(datasetSchema('depth', DEFAULT_DECIMAL).fields)).toBe(false);
    const picks = { chunk: Int32Array.from([1, 0, 1, 0, 1]), row: Int32Array.from([0, 2, 2, 0, 1]) };
    const pick = <T>(a: readonly T[], b: readonly T[]) => [b[0], a[2], b[2], a[0], b[1]];
    const cases: [DataType, unknown[], unknown[]][] = [
      [new Utf8(), ['x', null, 'äöü'], ['', 'long text value', null]],
      // Values past 32 bytes are copied whole (set), shorter ones byte by byte: both in one column.
      [new Utf8(), ['a halt reason well past thirty-two bytes: 停牌', 'ok', null], ['BTCUSDT', null, 'x'.repeat(33)]],
      [new Bool(), [true, null, false, true], [false, true, true]],
      [new Int8(), [1, -2, null], [127, -128, 0]],
      [new Float64(), [0.1, null, -3.5e300], [Number.MIN_VALUE, 2, null]],
      [new TimestampMillisecond(), [0, null, 1763510400000], [253402300799000, 1, null]],
    ];
    for (const [type, a, b] of cases) {
      // The first input is a slice (non-zero offset), as Arrow hands out a batch's sub-range.
      const first = vectorFromArray([null, ...a], type).data[0]!.slice(1, a.length);
      const second = vectorFromArray(b, type).data[0]!;
      const out = makeVector(takeRows([first, second], picks));
      expect(Array.from({ length: out.length }, (_, i) => out.get(i)), String(type)).toEqual(pick(a, b));
    }
    // Decimals: the 128-bit words themselves, negative and beyond 2^64 included.
    const words = (n: bigint) => Array.from({ length: 4 }, (_, k) => Number((BigInt.asUintN(128, n) >> BigInt(32 * k)) & 0xffffffffn));
    const values = [-1n, 10n ** 37n, 123456789012345678901234567n];
    const dec = makeData({ type: new Decimal(18, 38, 128), length: 3, nullCount: 0, data: Uint32Array.from(values.flatMap(words)) });
    const out = takeRows([dec], { chunk: Int32Array.from([0, 0, 0]), row: Int32Array.from([2, 0, 1]) });
    expect([...(out.values as Uint32Array)]).toEqual([values[2]!, values[0]!, values[1]!].flatMap(words));
  });

  it('copies stretches of consecutive rows whole and single rows one by one, the same values either way', () => {
    const random = mulberry32(11);
    const texts = (n: number) => Array.from({ length: n }, (_, i) => (random() < 0.1 ? null : random() < 0.1 ? `long value ${i} ${'ü'.repeat(20)}` : `c${i}`));
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => (random() < 0.1 ? null : i * 60_000 + 1_763_510_400_000));
    const sizes = [300, 180, 250];
    // Picks made of stretches of 1 to 40 consecutive rows of a random chunk.
    const chunk: number[] = [];
    const row: number[] = [];
    while (chunk.length < 2000) {
      const c = Math.floor(random() * sizes.length);
      const len = 1 + Math.floor(random() * 40);
      const start = Math.floor(random() * (sizes[c]! - len));
      for (let k = 0; k < len; k++) {
        chunk.push(c);
        row.push(start + k);
      }
    }
    const picks = { chunk: Int32Array.from(chunk), row: Int32Array.from(row) };
    for (const [type, make] of [
      [new Utf8(), texts],
      [new TimestampMillisecond(), numbers],
    ] as const) {
      const inputs = sizes.map((n, c) => {
        const values = make(n + 2);
        // Sliced inputs (non-zero offsets) for two of the chunks.
        return { values: values.slice(c === 1 ? 0 : 2), data: c === 1 ? vectorFromArray(values, type as DataType).data[0]! : vectorFromArray(values, type as DataType).data[0]!.slice(2, n) };
      });
      const out = makeVector(takeRows(inputs.map((i) => i.data), picks));
      expect(Array.from({ length: out.length }, (_, i) => out.get(i)), String(type)).toEqual(chunk.map((c, i) => inputs[c]!.values[row[i]!]));
    }
    const words = Array.from({ length: 3 }, (_, c) => Uint32Array.from({ length: sizes[c]! * 4 }, (_, k) => (c << 28) + k));
    const decs = words.map((w, c) => makeData({ type: new Decimal(18, 38, 128), length: sizes[c]!, nullCount: 0, data: w }));
    const out = takeRows(decs, picks);
    expect([...(out.values as Uint32Array)]).toEqual(chunk.flatMap((c, i) => [...words[c]!.subarray(row[i]! * 4, row[i]! * 4 + 4)]));
  });
});
