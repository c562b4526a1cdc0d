/**
 * Scanned pages whose buffers the sink hands back (page-buffers.ts, scanned-bar.ts): a page scanned
 * into a used buffer full of another page's bytes reads exactly as its records do; a page anything
 * made a view of is never recycled; a recycled page refuses every read (an error, never another
 * page's values); the sink recycles a page whose whole lane it took, and not one split across lanes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scanKlinePage } from '../../src/api/kline-page-scan.js';
import { findProduct } from '../../src/catalog/index.js';
import { KLINE_DECIMALS, RowWithWords } from '../../src/core/carried-words.js';
import type { Batch } from '../../src/core/component.js';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import { klineLaneAt } from '../../src/core/kline-lane.js';
import { laneOf } from '../../src/core/lazy-rows.js';
import { mulberry32 } from '../../src/core/mulberry32.js';
import { freePageBuffers, givePageBuffer, MAX_FREE_PER_SIZE, takePageBuffer } from '../../src/core/page-buffers.js';
import type { KlineRow, RawKline } from '../../src/core/records.js';
import type { ScannedWords } from '../../src/core/scanned-bar.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { pageOf, toRawKlines } from '../../src/sources/shared/kline-records.js';
import { ParseDecimals, resolveColumnTypes } from '../../src/transforms/parse-decimals/index.js';
import { runContext, tempDir } from '../sinks/helpers.js';

const BTC = findProduct('BTCUSDT')!;
const START = Date.UTC(2026, 10, 20) / 1000;
const STREAM = 'kline/BTCUSDT/1m';
const TYPES = resolveColumnTypes({ decimal: DEFAULT_DECIMAL, columns: {} });

/** A newest-first page of `n` plain bars one minute apart, as the service writes it. */
function pageText(seed: number, n: number): string {
  const rand = mulberry32(seed);
  const bars: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const base = 100 + rand() * 1000;
    const [open, close] = [base.toFixed(2), (base * (1 + rand() / 100)).toFixed(4)];
    const [high, low] = [(base * 1.05).toFixed(3), (base * 0.95).toFixed(1)];
    bars.push(`{"timestamp":"${START + 60 * i}","open_price":"${open}","close_price":"${close}","high_price":"${high}","low_price":"${low}","volume":"${(rand() * 10).toFixed(5)}","turnover":"${(rand() * 1e6).toFixed(7)}"}`);
  }
  return `{"ret":200,"msg":"ok","trace":"t","data":{"code":"BTCUSDT","kline_type":1,"kline_list":[${bars.join(',')}]}}`;
}

/** The page's scanned arrays and its records as the source makes them (bars [from, to) of the ascending page). */
function scanned(text: string, from?: number, to?: number): { page: ScannedWords; batch: Batch<RawKline> } {
  const list = scanKlinePage(text)!.kline_list;
  const page = laneOf(list) as ScannedWords;
  const records = toRawKlines(BTC, '1m', pageOf(list), { askedAtMs: (START + 3600 * 24) * 1000, answeredAtMs: (START + 3600 * 24) * 1000 }, '/quote-b-api/kline', from, to);
  return { page, batch: { stream: STREAM, seq: 0, records } };
}

function parsed(batch: Batch<RawKline>): Batch<KlineRow> {
  return new ParseDecimals(TYPES).apply(batch).output as Batch<KlineRow>;
}

/** Each row's fields and its decimals' words, as the sink's columns take them. */
function valuesOf(rows: readonly KlineRow[]): unknown[] {
  return rows.map((row) => {
    const dests = KLINE_DECIMALS.map(() => new Uint32Array(4));
    expect(RowWithWords.copyAllWords(row, 18, dests, 0)).toBe(true);
    return { ...row, words: dests.flatMap((d) => [...d]) };
  });
}

const sinks: PartitionedSink<KlineRow>[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((s) => s.close()));
});

async function klineSink(): Promise<PartitionedSink<KlineRow>> {
  const s = new PartitionedSink<KlineRow>({ outputDir: await tempDir(), spec: klineSpec, encoder: parquetEncoder({ rowGroupRows: 131072 }), decimal: DEFAULT_DECIMAL, maxRowsPerFile: 1_000_000, maxBufferedRows: 200_000, maxBufferedBytes: 1 << 30 });
  sinks.push(s);
  return s;
}

describe('recycled page buffers', () => {
  it('reads a page scanned into a used buffer, full of another page\'s bytes, as its records read', () => {
    const rand = mulberry32(3);
    for (let seed = 2; seed < 8; seed++) {
      // A page whose buffer comes back, then holds whatever bytes: all set, or noise.
      const before = scanned(pageText(100 + seed, 500)).page;
      const buffer = before.words.buffer;
      expect(before.recycle()).toBe(true);
      const bytes = new Uint8Array(buffer);
      for (let i = 0; i < bytes.length; i++) bytes[i] = seed % 2 === 0 ? 0xff : Math.floor(rand() * 256);
      const text = pageText(seed, 480 + seed);
      const { page, batch } = scanned(text);
      expect(page.words.buffer).toBe(buffer);
      const fromLane = parsed(batch);
      expect(klineLaneAt(laneOf(fromLane.records), 'parsed')).toBeDefined();
      // The same page read record by record (bar objects, no lane).
      const plain = scanned(text).batch;
      const fromRecords = parsed({ ...plain, records: [...plain.records] });
      expect(klineLaneAt(laneOf(fromRecords.records), 'parsed')).toBeUndefined();
      expect(valuesOf(fromLane.records)).toEqual(valuesOf(fromRecords.records));
    }
  });

  it('is refused for a page something made a view of (a bar, parse-decimals rows)', () => {
    const a = scanned(pageText(7, 50));
    expect([...a.batch.records]).toHaveLength(50);
    expect(a.page.recycle()).toBe(false);
    const b = scanned(pageText(8, 50));
    expect([...parsed(b.batch).records]).toHaveLength(50);
    expect(b.page.recycle()).toBe(false);
    expect(b.page.recycled).toBe(false);
  });

  it('leaves a recycled page refusing every read: an error, never another page\'s values', () => {
    const { page, batch } = scanned(pageText(9, 50));
    const rows = parsed(batch);
    expect(page.recycle()).toBe(true);
    expect(page.recycle()).toBe(false);
    const message = /read after its buffer was recycled/;
    expect(() => page.bar(0)).toThrow(message);
    expect(() => page.field(0, 1)).toThrow(message);
    expect(() => page.canonical(0, 0)).toThrow(message);
    expect(() => [...batch.records]).toThrow(message);
    expect(() => [...rows.records]).toThrow(message);
    expect(() => new ParseDecimals(TYPES).apply(batch)).toThrow(message);
  });

  it('keeps at most MAX_FREE_PER_SIZE free buffers of a size', () => {
    const before = freePageBuffers();
    const size = 12_345 * 8;
    for (let i = 0; i < MAX_FREE_PER_SIZE + 5; i++) givePageBuffer(new ArrayBuffer(size));
    expect(freePageBuffers() - before).toBe(MAX_FREE_PER_SIZE);
    for (let i = 0; i < MAX_FREE_PER_SIZE; i++) expect(takePageBuffer(size).byteLength).toBe(size);
    expect(freePageBuffers()).toBe(before);
  });
});

describe('the sink and scanned pages', () => {
  it('recycles a page whose whole lane it took, and writes its rows', async () => {
    const sink = await klineSink();
    const ctx = runContext();
    const { page, batch } = scanned(pageText(10, 500));
    const rows = parsed(batch);
    expect(await sink.write(rows, ctx)).toEqual([]);
    expect(page.recycled).toBe(true);
    const receipt = await sink.commit(ctx);
    expect(receipt.rows).toBe(500);
  });

  it('leaves a page split across lanes alone (its other lanes are still to come)', async () => {
    const sink = await klineSink();
    const ctx = runContext();
    const text = pageText(11, 500);
    const older = scanned(text, 0, 200);
    expect(await sink.write(parsed(older.batch), ctx)).toEqual([]);
    expect(older.page.recycled).toBe(false);
    const receipt = await sink.commit(ctx);
    expect(receipt.rows).toBe(200);
  });
});
