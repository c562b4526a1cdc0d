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
 * same way), the whole page first, then the next counts above `want`. Never below it: an answer to
 * fewer bars cannot complete the newest `want`. Above PAGE_BARS they are served as PAGE_BARS (W5),
 * so a short answer to a full page can still be completed by another request.
 */
export function otherCounts(want: number, how: number): number[] {
  const out: number[] = [];
  if (want < PAGE_BARS) out.push(PAGE_BARS);
  for (let n = want + 1; out.length < how; n++) if (!out.includes(n)) out.push(n);
  return out.slice(0, how);
}
