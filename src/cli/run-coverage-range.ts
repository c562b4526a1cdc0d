/**
 * Where the coverage after a K-line run starts, per series: what the run could have changed, and
 * the join with what was held before it, never the whole history (a minute updater on a year-old
 * lake reads a day's files).
 */
import { findProduct } from '../catalog/index.js';
import { firstCellMs } from '../catalog/bar-grid.js';
import type { Interval } from '../core/records.js';
import { runStartMs, type KlinePosition } from '../sources/kline-history/kline-position.js';

export interface RunRange {
  /** The first bar open (ms) the report covers. */
  readonly from: number;
  /** Bars are expected from `from`: those missing below the first bar held are a gap. */
  readonly expectFrom?: true;
}

/**
 * The start of a series' range, from its checkpoint before and after the run (`runStartMs`), and:
 * - `sinceMs` (kline-history, a product whose history is walked back by end time): when this run's
 *   walk reached `since` and found bars older than it (so no "history begins later", R1), the bars
 *   missing between `since` and the lowest one held are a gap the report must count;
 * - `heldBeforeSec`: the newest bar the lake held before the run, whoever wrote it; a series this
 *   pipeline never fetched before (kline-latest beside a backfill) is covered from there, so the
 *   hole where its bars join the older ones is reported.
 */
export function runRange(before: KlinePosition, after: KlinePosition, sinceMs: number | undefined, heldBeforeSec: number | undefined): RunRange | undefined {
  const from = runStartMs(before, after);
  if (from === undefined) return undefined;
  if (sinceMs !== undefined && after.walk === undefined && after.begins === undefined && after.low !== null) {
    const walkedToSince = sinceMs < after.low * 1000 && (before.low === null || sinceMs < before.low * 1000);
    if (walkedToSince) return { from: Math.min(from, sinceMs), expectFrom: true };
  }
  const ownHistory = before.watermark !== null || before.low !== null || before.walk !== undefined;
  if (!ownHistory && heldBeforeSec !== undefined && heldBeforeSec * 1000 < from) return { from: heldBeforeSec * 1000 };
  return { from };
}

/** The first bar a kline-history series asks for: `since`, no earlier than the product's listing; undefined where history is not walked back by end time. */
export function seriesSinceMs(code: string, interval: string, askedMs: number | undefined): number | undefined {
  const product = findProduct(code);
  if (askedMs === undefined || product === undefined || !product.endTimestampSupported) return undefined;
  return Math.max(askedMs, firstCellMs(product, interval as Interval));
}
