/**
 * pageOf places an answer in strict time order (ascending or descending) without a map or a sort:
 * the page must be exactly what the general path gives for the same bars in any order.
 */
import { describe, expect, it } from 'vitest';
import { mergePages, pageOf } from '../../../src/sources/shared/kline-records.js';
import type { WireKline } from '../../../src/core/wire.js';

const bar = (ts: number, close = '1.5'): WireKline => ({
  timestamp: String(ts),
  open_price: '1',
  close_price: close,
  high_price: '2',
  low_price: '1',
  volume: '3',
  turnover: '4',
});

describe('pageOf on ordered answers', () => {
  const bars = [60, 120, 180, 240, 300].map((t) => bar(1_763_500_000 + t));

  it('gives ascending and descending answers the same page as a shuffled one', () => {
    const shuffled = [bars[3]!, bars[0]!, bars[4]!, bars[1]!, bars[2]!];
    const expected = pageOf(shuffled);
    expect([...expected.ts]).toEqual(bars.map((b) => Number(b.timestamp)));
    expect(expected.bars).toEqual(bars);
    expect(pageOf(bars)).toEqual(expected);
    expect(pageOf([...bars].reverse())).toEqual(expected);
    expect(pageOf([bars[0]!])).toEqual(pageOf([bars[0]!, bars[0]!]));
    expect(pageOf([])).toEqual({ bars: [], ts: new Float64Array(0), malformed: [] });
  });

  it('leaves repeats, conflicts and bad stamps to the general path', () => {
    const repeat = pageOf([...bars, bars[4]!]);
    expect(repeat.bars.length).toBe(5);
    const conflict = pageOf([bars[0]!, bar(1_763_500_060, '9'), bars[1]!]);
    expect([...conflict.ts]).toEqual([1_763_500_120]);
    expect(conflict.bars).toEqual([bars[1]!]);
    expect(conflict.malformed.map((m) => m.flaw?.code)).toEqual(['QL_DUPLICATE_CONFLICT', 'QL_DUPLICATE_CONFLICT']);
    // R4: one value in two texts is a repeat, not a conflict; the first text is kept.
    const retold = pageOf([bars[0]!, { ...bar(1_763_500_060, '1.50'), open_price: '01', volume: '3.000' }, bars[1]!]);
    expect(retold.malformed).toEqual([]);
    expect(retold.bars).toEqual([bars[0]!, bars[1]!]);
    const unparsable = pageOf([bars[0]!, { ...bars[0]!, close_price: '1.5e0' }]);
    expect(unparsable.malformed.map((m) => m.flaw?.code)).toEqual(['QL_DUPLICATE_CONFLICT', 'QL_DUPLICATE_CONFLICT']);
    const bad = pageOf([bars[0]!, { ...bars[1]!, timestamp: 'x' }, bars[2]!]);
    expect(bad.bars.length).toBe(2);
    expect(bad.malformed.length).toBe(1);
  });
});

describe('mergePages', () => {
  it('a bad bar that two answers hold alike (a page asked for again) is one malformed record; different ones stay apart', () => {
    const good = [60, 120].map((t) => bar(1_763_500_000 + t));
    const inMs = { ...bar(0), timestamp: '1763500180000' };
    const letters = { ...bar(0), timestamp: 'abc' };
    const first = pageOf([...good, inMs, letters]);
    const again = pageOf([...good, { ...inMs }, { ...letters }, { ...letters, close_price: '9' }]);
    const merged = mergePages([first, again]);
    expect([...merged.ts]).toEqual(good.map((b) => Number(b.timestamp)));
    expect(merged.malformed.map((m) => [m.bar.timestamp, m.bar.close_price])).toEqual([
      ['1763500180000', '1.5'],
      ['abc', '1.5'],
      ['abc', '9'],
    ]);
  });
});
