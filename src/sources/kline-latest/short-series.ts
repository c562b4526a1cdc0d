/**
 * A /batch-kline series that came back with fewer bars than asked although the product has that
 * many: the bar before the newest was not delivered. A forming bar an earlier round stored for it
 * then keeps its early values for good (the next round's two bars are newer), and no gap shows, so
 * the round says it: a shortfall, named once per series and run.
 */
import type { Product } from '../../catalog/index.js';
import { countBarsUpTo, listedStartMs } from '../../catalog/bar-grid.js';
import type { Interval } from '../../core/records.js';

/** The bars the answer should have held, when it held fewer (and not none: a series left out is the client's to report). */
export function shortOf(product: Product, interval: Interval, asked: number, received: number, askedAtMs: number): number | undefined {
  if (received === 0 || received >= asked) return undefined;
  const exist = countBarsUpTo(product, interval, listedStartMs(product), askedAtMs + 1, asked, askedAtMs);
  return exist > received ? exist : undefined;
}
