/** Key ranges (per group, the lowest and highest order value) of files and buffers. */
import { compareOrder, type Order } from '../datasets/dataset-spec.js';

/** Whether two files' key ranges share a key of some group (then they must be merged by key). */
export function overlaps(a: Readonly<Record<string, readonly [Order, Order]>>, b: Readonly<Record<string, readonly [Order, Order]>>): boolean {
  for (const group of Object.keys(a)) {
    const x = a[group]!;
    const y = b[group];
    if (y !== undefined && compareOrder(x[0], y[1]) <= 0 && compareOrder(y[0], x[1]) <= 0) return true;
  }
  return false;
}
