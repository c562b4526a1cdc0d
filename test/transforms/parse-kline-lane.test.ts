/**
 * parse-decimals on the K-line lane against parse-decimals on the same records read one by one:
 * random pages (ascending and newest-first, plain and odd values: zeros, signs, 16 to 38
 * digits, too many integer or fractional digits, inconsistent prices, negative amounts) through the client's
 * scanner and the source's page handling, parsed both ways, give equal rows with equal words and
 * equal rejections, for the default column type and for narrower ones.
 */
import { describe, expect, it } from 'vitest';
import { scanKlinePage } from '../../src/api/kline-page-scan.js';
import { findProduct } from '../../src/catalog/index.js';
import { KLINE_DECIMALS, RowWithWords } from '../../src/core/carried-words.js';
import type { Batch } from '../../src/core/component.js';
import { klineLaneAt } from '../../src/core/kline-lane.js';
import { laneOf } from '../../src/core/lazy-rows.js';
import { mulberry32 } from '../../src/core/mulberry32.js';
import type { RawKline } from '../../src/core/records.js';
import { pageOf, toRawKlines } from '../../src/sources/shared/kline-records.js';
import { ParseDecimals, resolveColumnTypes, type ParseDecimalsConfig } from '../../src/transforms/parse-decimals/index.js';

const BTC = findProduct('BTCUSDT')!;
const START = Date.UTC(2026, 10, 20) / 1000;

function decimalText(rand: () => number, base: number): string {
  const pick = rand();
  if (pick < 0.02) return '0';
  if (pick < 0.03) return '-0.000';
  if (pick < 0.04) return '1234567890123456.5'; // more than 15 digits: folded through its text
  if (pick < 0.05) return '-12345678901234567890.123456789012345678'; // 38 digits, the widest folded
  if (pick < 0.055) return '0.1234567890123456789'; // 19 fractional digits: read from the text
  if (pick < 0.06) return '12345678901234567890123.5'; // too many integer digits for 38,18
  if (pick < 0.07) return '1.50';
  const digits = 1 + Math.floor(rand() * 8);
  return (base * (1 + rand() / 100)).toFixed(digits);
}

/** A page of `n` bars one minute apart, as the service writes it; `odd` lets values go wrong. */
function pageText(rand: () => number, n: number, descending: boolean, odd: boolean): string {
  const bars: string[] = [];
  for (let i = 0; i < n; i++) {
    const ts = START + 60 * i;
    const base = 100 + rand() * 1000;
    let [open, close] = [decimalText(rand, base), decimalText(rand, base)];
    let high = String(base * 1.05);
    let low = String(base * 0.95);
    let volume = decimalText(rand, 10);
    let turnover = decimalText(rand, 1000);
    if (!odd) {
      open = close = base.toFixed(2);
      high = (base * 1.05).toFixed(2);
      low = (base * 0.95).toFixed(2);
      volume = (rand() * 10).toFixed(5);
      turnover = (rand() * 1000).toFixed(7);
    } else if (rand() < 0.02) {
      volume = `-${volume}`;
    } else if (rand() < 0.02) {
      high = low; // below open: inconsistent
    }
    bars.push(`{"timestamp":"${ts}","open_price":"${open}","close_price":"${close}","high_price":"${high}","low_price":"${low}","volume":"${volume}","turnover":"${turnover}"}`);
  }
  if (descending) bars.reverse();
  return `{"ret":200,"msg":"ok","trace":"t","data":{"code":"BTCUSDT","kline_type":1,"kline_list":[${bars.join(',')}]}}`;
}

function batchOf(text: string): Batch<RawKline> {
  const data = scanKlinePage(text)!;
  const page = pageOf(data.kline_list);
  // Half-way through the newest bar's minute: every other bar is final (no bar opens after its answer).
  const newest = page.ts.length > 0 ? page.ts[page.ts.length - 1]! : START;
  const answeredAt = (newest + 30) * 1000;
  return { stream: 'kline/BTCUSDT/1m', seq: 0, records: toRawKlines(BTC, '1m', page, { askedAtMs: answeredAt, answeredAtMs: answeredAt }, '/quote-b-api/kline') };
}

function wordsOf(rows: readonly unknown[]): number[][] {
  return rows.map((row) => {
    const dests = KLINE_DECIMALS.map(() => new Uint32Array(4));
    return RowWithWords.copyAllWords(row as object, 18, dests, 0) ? dests.flatMap((d) => [...d]) : [];
  });
}

const TYPES: ParseDecimalsConfig[] = [
  { decimal: { precision: 38, scale: 18 }, columns: {} },
  { decimal: { precision: 38, scale: 18 }, columns: { volume: { precision: 20, scale: 18 } } },
  { decimal: { precision: 30, scale: 8 }, columns: {} },
];

describe('parse-decimals on the K-line lane', () => {
  it('gives what the record path gives, row for row, word for word, rejection for rejection', () => {
    const rand = mulberry32(14);
    let onLane = 0;
    for (let trial = 0; trial < 300; trial++) {
      const text = pageText(rand, 1 + Math.floor(rand() * 40), rand() < 0.5, trial % 3 !== 0);
      const config = TYPES[trial % TYPES.length]!;
      const lane = new ParseDecimals(resolveColumnTypes(config)).apply(batchOf(text));
      const plainBatch = batchOf(text);
      const plain = new ParseDecimals(resolveColumnTypes(config)).apply({ ...plainBatch, records: [...plainBatch.records] });
      if (klineLaneAt(laneOf(lane.output.records), 'parsed') !== undefined) onLane++;
      expect(lane.rejected).toEqual(plain.rejected);
      expect(lane.output.records).toEqual(plain.output.records);
      expect(wordsOf(lane.output.records)).toEqual(wordsOf(plain.output.records));
    }
    // Plain pages at scale 18 take the lane; every page with an odd value, or at scale 8, does not.
    expect(onLane).toBeGreaterThan(40);
  });

  it('keeps the bars in time order from a newest-first page', () => {
    const text = pageText(mulberry32(1), 5, true, false);
    const out = new ParseDecimals(resolveColumnTypes(TYPES[0]!)).apply(batchOf(text));
    const lane = klineLaneAt(laneOf(out.output.records), 'parsed')!;
    expect(lane.step).toBe(-1);
    expect([...lane.seconds]).toEqual([0, 1, 2, 3, 4].map((i) => START + 60 * i));
    expect(out.output.records.map((r) => (r as { ts: number }).ts)).toEqual([0, 1, 2, 3, 4].map((i) => (START + 60 * i) * 1000));
    // The newest bar is still forming at the time of the answer.
    expect(out.output.records.map((r) => (r as { final: boolean }).final)).toEqual([true, true, true, true, false]);
  });
});
