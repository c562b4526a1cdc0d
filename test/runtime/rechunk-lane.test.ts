/**
 * A batch with a lane (lazy-rows.ts) split by rechunk: each piece carries the lane of its own rows
 * (a K-line lane cut at the piece's bounds, nothing copied), its records are the parent's, and
 * only the last piece carries the checkpoint. A lane that cannot be cut leaves the pieces plain.
 */
import { describe, expect, it } from 'vitest';
import { KlineLane, klineLaneAt } from '../../src/core/kline-lane.js';
import { laneOf, lazyRows, type Lane } from '../../src/core/lazy-rows.js';
import { ScannedWords } from '../../src/core/scanned-bar.js';
import { rechunk } from '../../src/runtime/rechunk.js';

const BARS = 10;

/** A newest-first page of 10 bars read backwards: record i is scanned bar 9 - i. */
function laneBatch() {
  const page = new ScannedWords('x'.repeat(1_500), BARS);
  page.count = BARS;
  const seconds = Float64Array.from({ length: BARS }, (_, i) => 1_763_600_000 + 60 * i);
  const final = Uint8Array.from({ length: BARS }, (_, i) => (i < BARS - 1 ? 1 : 0));
  const lane = new KlineLane('parsed', page, BARS - 1, -1, 'BTCUSDT', '1m', 'kline-history', seconds, final);
  let made = 0;
  const records = lazyRows(BARS, () => {
    made++;
    return Array.from({ length: BARS }, (_, i) => ({ row: i }));
  }, lane);
  return { page, lane, records, made: () => made };
}

describe('rechunk with a lane', () => {
  it('cuts a K-line lane with the batch: each piece its rows, bars, times and finality', () => {
    const { page, records, made } = laneBatch();
    let seq = 0;
    const checkpoint = { stream: 's', position: { x: 1 } } as never;
    const pieces = rechunk({ stream: 's', seq: 0, records, checkpoint, settledFrom: 5 }, { maxRows: 4, maxBytes: 1 << 30 }, () => seq++);
    expect(pieces.map((p) => p.records.length)).toEqual([4, 4, 2]);
    expect(pieces.map((p) => p.checkpoint)).toEqual([undefined, undefined, checkpoint]);
    expect(pieces.map((p) => p.settledFrom)).toEqual([undefined, undefined, 5]);
    expect(made()).toBe(0); // cut without making a record
    let start = 0;
    for (const piece of pieces) {
      const lane = klineLaneAt(laneOf(piece.records), 'parsed')!;
      expect(lane).toBeInstanceOf(KlineLane);
      expect(lane.page).toBe(page);
      expect(lane.length).toBe(piece.records.length);
      for (let i = 0; i < lane.length; i++) {
        expect(lane.row(i)).toBe(BARS - 1 - (start + i));
        expect(lane.seconds[i]).toBe(1_763_600_000 + 60 * (start + i));
        expect(lane.final[i]).toBe(start + i < BARS - 1 ? 1 : 0);
      }
      start += lane.length;
    }
    // Read as records, the pieces are the parent's rows in order.
    expect(pieces.flatMap((p) => p.records.map((r) => (r as { row: number }).row))).toEqual([...Array(BARS).keys()]);
  });

  it('a lane without slice: the pieces are plain arrays', () => {
    const bare: Lane = { rowBytes: 100 };
    const records = lazyRows(6, () => [0, 1, 2, 3, 4, 5], bare);
    const pieces = rechunk({ stream: 's', seq: 0, records }, { maxRows: 4, maxBytes: 1 << 30 }, () => 0);
    expect(pieces.map((p) => [...p.records])).toEqual([[0, 1, 2, 3], [4, 5]]);
    expect(pieces.map((p) => laneOf(p.records))).toEqual([undefined, undefined]);
  });
});
