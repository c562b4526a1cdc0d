/** How many bars one /kline request returns, and so how many requests a walk needs: the planner and the walk count alike. */

/** Bars per /kline request (spec 8.3). */
export const PAGE_BARS = 500;

/** Requests a backward walk needs for `bars` bars: one per full page. */
export function pagesFor(bars: number): number {
  return Math.ceil(bars / PAGE_BARS);
}
