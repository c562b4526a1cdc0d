/**
 * How the series of one kline-history source share the run (see mergeByFrontier): all of them
 * advance through time together, so a walk waiting for its turn still holds the pages it asked for
 * ahead. Those are shared: a walk keeps one page (the one it reads) plus its share of the
 * `concurrency` x (`prefetchPages` - 1) pages ahead that `concurrency` walks would keep, so as many
 * requests stay in flight as when only `concurrency` series walked at once, and no more answers wait
 * in memory (measured: 4 pages each for 10 codes in lockstep cost ~25 MB of peak RSS, same CPU).
 */

/** Series started and unfinished at once; the next starts when one ends. */
export const OPEN_SERIES = 64;

/** Pages of one walk in flight at once when `series` series share the source. */
export function pagesAheadPerSeries(concurrency: number, prefetchPages: number, series: number): number {
  const sharing = Math.max(1, Math.min(series, Math.max(concurrency, OPEN_SERIES)));
  return Math.max(1, Math.min(prefetchPages, 1 + Math.floor((concurrency * (prefetchPages - 1)) / sharing)));
}
