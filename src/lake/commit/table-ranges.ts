/**
 * The key ranges of rows held as Arrow columns, without building rows: the spec's group() and
 * order() read a view whose fields are the columns' cells (timestamps as epoch-ms numbers, as
 * fromTable gives them), so only the key columns are touched.
 */
import type { Table, Vector } from 'apache-arrow';
import { compareOrder, type DatasetSpec, type Order } from '../datasets/dataset-spec.js';

export function tableRanges<R>(table: Table, spec: DatasetSpec<R>): Record<string, [Order, Order]> {
  const ranges: Record<string, [Order, Order]> = {};
  for (const batch of table.batches) {
    const columns = new Map<string, Vector | null>();
    let i = 0;
    const view = new Proxy(
      {},
      {
        get(_target, name) {
          const key = String(name);
          let column = columns.get(key);
          if (column === undefined) {
            column = batch.getChild(key);
            columns.set(key, column);
          }
          const value: unknown = column?.get(i) ?? null;
          return typeof value === 'bigint' ? Number(value) : value;
        },
      },
    ) as R;
    for (i = 0; i < batch.numRows; i++) {
      const g = spec.group(view);
      const o = spec.order(view);
      const r = ranges[g];
      if (r === undefined) ranges[g] = [o, o];
      else {
        if (compareOrder(o, r[0]) < 0) r[0] = o;
        if (compareOrder(o, r[1]) > 0) r[1] = o;
      }
    }
  }
  return ranges;
}
