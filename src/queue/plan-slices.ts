/**
 * Splits a K-line run into partition-aligned slices. The lake partitions intraday bars by UTC day
 * and daily-or-longer bars by UTC year (src/lake/datasets/kline.ts), so a slice never spans two
 * partitions and two slices of one series never write the same partition.
 *
 * A series the service cannot walk back (stocks and indexes: only their newest bars are served)
 * cannot be fetched by date range: it stays one slice over the whole range.
 */
import { klinePartition } from '../core/kline-partition.js';
import { LONG_INTERVALS, type Interval } from '../core/records.js';

const DAY_MS = 86_400_000;

export interface SeriesSpan {
  readonly code: string;
  readonly interval: Interval;
  /** False for stocks and indexes (no end timestamps). */
  readonly walkable: boolean;
}

export interface SliceRange {
  readonly code: string;
  readonly interval: Interval;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly partition: string;
}

function yearStart(year: number): number {
  return Date.UTC(year, 0, 1);
}

/** Bars open at whole seconds: a slice ends one second before the next partition begins. */
const LAST_SECOND = 1000;

export function planSlices(series: readonly SeriesSpan[], fromMs: number, untilMs: number): SliceRange[] {
  const out: SliceRange[] = [];
  if (!(untilMs >= fromMs)) return out;
  for (const s of series) {
    if (!s.walkable) {
      out.push({ code: s.code, interval: s.interval, fromMs, untilMs, partition: 'series' });
      continue;
    }
    if (LONG_INTERVALS.has(s.interval)) {
      for (let y = new Date(fromMs).getUTCFullYear(); y <= new Date(untilMs).getUTCFullYear(); y++) {
        const lo = Math.max(fromMs, yearStart(y));
        const hi = Math.min(untilMs, yearStart(y + 1) - LAST_SECOND);
        if (hi >= lo) out.push({ code: s.code, interval: s.interval, fromMs: lo, untilMs: hi, partition: klinePartition(s.interval, lo) });
      }
      continue;
    }
    for (let d = Math.floor(fromMs / DAY_MS); d <= Math.floor(untilMs / DAY_MS); d++) {
      const lo = Math.max(fromMs, d * DAY_MS);
      const hi = Math.min(untilMs, (d + 1) * DAY_MS - LAST_SECOND);
      if (hi >= lo) out.push({ code: s.code, interval: s.interval, fromMs: lo, untilMs: hi, partition: klinePartition(s.interval, lo) });
    }
  }
  return out;
}
