/**
 * Which files of one partition are compacted together. The rule: after a commit (or `quotelake
 * compact`) a partition holds no more than `ceil(rows / target)` files, where target is the rows a
 * file may hold and a compaction may hold in memory at once (min of maxRowsPerFile and
 * maxBufferedRows). Files already at the target stay as they are; the smaller ones are packed, in
 * key order, into chunks of at most `target` rows, and each chunk of two or more becomes one file.
 * Packing in key order keeps the new files' key ranges from overlapping each other.
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

/** The lowest key of a file (its first group, then its lowest order), to sort files by. */
function lowestKey(f: SizedFile): [string, Order] | undefined {
  let best: [string, Order] | undefined;
  for (const [group, [lo]] of Object.entries(f.ranges)) {
    if (best === undefined || group < best[0] || (group === best[0] && compareOrder(lo, best[1]) < 0)) best = [group, lo];
  }
  return best;
}

function byLowestKey(a: SizedFile, b: SizedFile): number {
  const x = lowestKey(a);
  const y = lowestKey(b);
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? -1 : 1;
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : compareOrder(x[1], y[1]);
}

/**
 * The chunks to compact (each of two files or more), or none when the partition is within its bound.
 * `files` are the partition's disjoint files (live and staged).
 */
export function planChunks<F extends SizedFile>(files: readonly F[], target: number): F[][] {
  const rows = files.reduce((n, f) => n + f.rows, 0);
  if (files.length <= fileBound(rows, target)) return [];
  const small = files.filter((f) => f.rows < target).sort(byLowestKey);
  const chunks: F[][] = [];
  let current: F[] = [];
  let held = 0;
  for (const f of small) {
    if (current.length > 0 && held + f.rows > target) {
      chunks.push(current);
      current = [];
      held = 0;
    }
    current.push(f);
    held += f.rows;
  }
  if (current.length > 0) chunks.push(current);
  return chunks.filter((c) => c.length > 1);
}
