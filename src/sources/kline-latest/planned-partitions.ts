/**
 * The kline partition folders a kline-latest run writes: those of the two bars each round's answer
 * holds, the newest (maybe forming) and the one before it, as of the instant the round starts. A
 * stock asked on a Monday before the open gets Thursday's and Friday's bars, so the folders are
 * found from the sessions, never as "the last two days".
 */
import type { Product } from '../../catalog/index.js';
import { cellStart, listedStartMs } from '../../catalog/bar-grid.js';
import { lastWindowAtOrBefore } from '../../catalog/sessions.js';
import { klinePartition } from '../../core/kline-partition.js';
import type { Interval } from '../../core/records.js';

/** Open times (ms, newest first) of the `count` newest bars that exist at `atMs`: each the cell of the last traded minute before the newer one opened. */
export function newestBarOpens(product: Product, interval: Interval, atMs: number, count: number): number[] {
  const out: number[] = [];
  const listed = listedStartMs(product);
  let before = atMs;
  while (out.length < count) {
    const window = lastWindowAtOrBefore(product.session, before);
    if (window === null) break;
    const traded = Math.min(window.end - 1, before);
    if (traded < listed) break;
    const open = cellStart(product, interval, traded);
    out.push(open);
    before = open - 1;
  }
  return out;
}

/** Folders of the `count` newest bars of each series at each round start (ms, absolute), ascending. */
export function latestPartitions(series: readonly { product: Product; interval: Interval }[], roundStartsMs: readonly number[], count: number): string[] {
  const out = new Set<string>();
  for (const { product, interval } of series) {
    let lastCell: number | undefined;
    for (const at of roundStartsMs) {
      // Rounds inside one cell whose bar has opened see the same two bars: counted once.
      const cell = cellStart(product, interval, at);
      if (cell === lastCell) continue;
      const opens = newestBarOpens(product, interval, at, count);
      for (const open of opens) out.add(klinePartition(interval, open));
      if (opens[0] === cell) lastCell = cell;
    }
  }
  return [...out].sort();
}
