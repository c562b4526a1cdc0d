/** Key ranges (per group, the lowest and highest order value) of files and buffers. */
import { compareOrder, type Order } from '../datasets/dataset-spec.js';

/** Per group, the lowest and highest order value. */
export type KeyRanges = Record<string, [Order, Order]>;

/** Widen `ranges` so that `group` covers lo..hi (one key: lo alone). */
export function widenRange(ranges: KeyRanges, group: string, lo: Order, hi: Order = lo): void {
  const r = ranges[group];
  if (r === undefined) ranges[group] = [lo, hi];
  else {
    if (compareOrder(lo, r[0]) < 0) r[0] = lo;
    if (compareOrder(hi, r[1]) > 0) r[1] = hi;
  }
}

/** Whether two files' key ranges share a key of some group (then they must be merged by key). */
export function overlaps(a: Readonly<Record<string, readonly [Order, Order]>>, b: Readonly<Record<string, readonly [Order, Order]>>): boolean {
  for (const group of Object.keys(a)) {
    const x = a[group]!;
    const y = b[group];
    if (y !== undefined && compareOrder(x[0], y[1]) <= 0 && compareOrder(y[0], x[1]) <= 0) return true;
  }
  return false;
}
