/**
 * The chain of pages a walk asks for ahead: plain, each page starts where the one before ended
 * (500 bars each, the last one the bars left above the floor); for a service seen to overlap, each
 * page is predicted a bar higher and the last one asks for a bar more, so it still reaches the floor.
 */
import { describe, expect, it } from 'vitest';
import { findProduct } from '../../../src/catalog/index.js';
import { predictChain } from '../../../src/sources/kline-history/predicted-chain.js';
import { WalkCalendar } from '../../../src/sources/kline-history/walk-calendar.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const sec = (iso: string) => Date.parse(iso) / 1000;

describe('predictChain', () => {
  // BTCUSDT 1m trades every minute: a page of 500 bars spans 500 minutes exactly.
  const calendar = () => new WalkCalendar(findProduct('BTCUSDT')!, '1m', Date.parse('2026-11-19T00:00:00Z'));
  const end = sec('2026-11-20T11:59:59Z'); // the walk's page ends at the bar of 11:59 (its newest)

  it('plain: each page ends a second before the oldest of the one above, the last asking for what is left', () => {
    // 11:59 back to the floor (00:00 of the day before): 2,160 bars, the first page holding 500.
    const chain = predictChain(calendar(), end, 500, 6, NOW, false);
    expect(chain).toEqual([
      { end: end - 500 * 60, want: 500 },
      { end: end - 1000 * 60, want: 500 },
      { end: end - 1500 * 60, want: 500 },
      { end: end - 2000 * 60, want: 160 },
    ]);
  });

  it('overlapping: 499 new bars a page, and the last page one bar more than is left', () => {
    const chain = predictChain(calendar(), end, 500, 6, NOW, true);
    expect(chain).toEqual([
      { end: end - 499 * 60, want: 500 },
      { end: end - 998 * 60, want: 500 },
      { end: end - 1497 * 60, want: 500 },
      { end: end - 1996 * 60, want: 165 },
    ]);
  });

  it('no further than `pages` - 1 pages', () => {
    expect(predictChain(calendar(), end, 500, 1, NOW, true)).toEqual([]);
    expect(predictChain(calendar(), end, 500, 3, NOW, false)).toHaveLength(2);
  });
});
