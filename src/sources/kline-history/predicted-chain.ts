/**
 * The pages a backward walk asks for ahead. An answer to end E holds the newest bars at or before E
 * (W4), so after a page of `want` bars at `end` the next page ends at its oldest bar - 1 s, as the
 * calendar counts them.
 * A service may also answer with the bar above the end (R2: pages may overlap; the emulator's
 * `overlap`): such a page holds one bar fewer at or before its end. Once a series' walk has seen
 * that (`overlapping`), each page is predicted to stop a bar higher and is asked for with a bar more
 * (the last one still reaches the floor): otherwise every page stops a bar above the page asked for
 * ahead, and that one bar takes a request of its own. A service that never overlaps keeps the plain
 * chain, request for request.
 */
import { PAGE_BARS } from './page-bars.js';
import type { WalkCalendar } from './walk-calendar.js';

export interface ChainPage {
  /** kline_timestamp_end to ask with (Unix seconds). */
  readonly end: number;
  /** Bars to ask for. */
  readonly want: number;
}

/** Up to `pages` - 1 pages after the one at `end` asked for `want` bars, newest first. */
export function predictChain(calendar: WalkCalendar, end: number, want: number, pages: number, nowMs: number, overlapping: boolean): ChainPage[] {
  const out: ChainPage[] = [];
  let e = end;
  let w = want;
  for (let i = 1; i < pages; i++) {
    const atOrBefore = overlapping ? w - 1 : w;
    const oldest = atOrBefore < 1 ? null : calendar.nthBack(e * 1000, atOrBefore);
    if (oldest === null) break;
    const nextEnd = oldest / 1000 - 1;
    const bars = calendar.countUpTo(nextEnd * 1000 + 1, PAGE_BARS, nowMs);
    if (bars === 0) break;
    const nextWant = overlapping ? Math.min(PAGE_BARS, bars + 1) : bars;
    out.push({ end: nextEnd, want: nextWant });
    e = nextEnd;
    w = nextWant;
  }
  return out;
}
