/** How many bars one /kline request returns, and so how many requests a walk needs: the planner and the walk count alike. */

/** Bars per /kline request (spec 8.3). */
export const PAGE_BARS = 500;

/** Requests a backward walk needs for `bars` bars: one per full page. */
export function pagesFor(bars: number): number {
  return Math.ceil(bars / PAGE_BARS);
}

/**
 * Counts to ask with when an answer to `want` bars left the question open (a short page, R1): `how`
 * counts, each different from `want` and from each other (a service may answer the same request the
 * same way), the whole page first, then the nearest counts to `want` within 1..PAGE_BARS.
 */
export function otherCounts(want: number, how: number): number[] {
  const out: number[] = [];
  const candidates = [PAGE_BARS];
  for (let d = 1; d <= how + 1; d++) candidates.push(want + d, want - d);
  for (const n of candidates) {
    if (out.length === how) break;
    if (n !== want && n >= 1 && n <= PAGE_BARS && !out.includes(n)) out.push(n);
  }
  return out;
}
