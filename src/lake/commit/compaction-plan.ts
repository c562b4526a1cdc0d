/**
 * Which files of one partition are compacted. The rule: after a commit (or `quotelake compact`) a
 * partition holds no more than `ceil(rows / target)` files, where target is the rows a file may
 * hold and a compaction may hold in memory at once (min of maxRowsPerFile and maxBufferedRows).
 * Files already at the target stay as they are; when the partition is over its bound, the smaller
 * ones are rewritten, in key order, as files of exactly `target` rows and one remainder, which
 * meets the bound (full files F, small rows S: F + ceil(S / target) <= ceil(rows / target)).
 * Key order (lowest order value first, as files of successive commits follow each other in time)
 * keeps the new files' key ranges apart.
 */
import { compareOrder, type Order } from '../datasets/dataset-spec.js';

export interface SizedFile {
  readonly rows: number;
  readonly ranges: Readonly<Record<string, readonly [Order, Order]>>;
}

/** The most files a partition of `rows` rows may hold. */
export function fileBound(rows: number, target: number): number {
  return Math.max(1, Math.ceil(rows / target));
}

/** The lowest order value of a file over all its groups, and that group, to sort files by. */
function lowestKey(f: SizedFile): [Order, string] | undefined {
  let best: [Order, string] | undefined;
  for (const [group, [lo]] of Object.entries(f.ranges)) {
    if (best === undefined || compareOrder(lo, best[0]) < 0 || (compareOrder(lo, best[0]) === 0 && group < best[1])) best = [lo, group];
  }
  return best;
}

function byLowestKey(a: SizedFile, b: SizedFile): number {
  const x = lowestKey(a);
  const y = lowestKey(b);
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? -1 : 1;
  const c = compareOrder(x[0], y[0]);
  return c !== 0 ? c : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
}

/**
 * The small files to rewrite, in key order (none when the partition is within its bound).
 * `files` are the partition's disjoint files (live and staged).
 */
export function planCompaction<F extends SizedFile>(files: readonly F[], target: number): F[] {
  const rows = files.reduce((n, f) => n + f.rows, 0);
  if (files.length <= fileBound(rows, target)) return [];
  const small = files.filter((f) => f.rows < target).sort(byLowestKey);
  return small.length > 1 ? small : [];
}

/** Files after rewriting `small` (dry run: the plan's outcome). */
export function filesAfter(total: number, small: readonly SizedFile[], target: number): number {
  if (small.length === 0) return total;
  return total - small.length + Math.ceil(small.reduce((n, f) => n + f.rows, 0) / target);
}
