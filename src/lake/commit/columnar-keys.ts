/**
 * The primary keys of rows held as Arrow columns, read from the key columns alone: group ids
 * (codes as small integers, the text decoded once per run of equal bytes), order values as numbers
 * (instants from their two 32-bit words, no BigInt) or digit strings (sequence numbers), and the
 * sticky flag (a final bar). From them: which rows survive a de-duplication, in key order, and the
 * key ranges and `quotelake.series` of any selection. No row object and no decimal is touched.
 */
import { DataType, type Data, type RecordBatch } from 'apache-arrow';
import { compareOrder, type ColumnarKeySpec, type Order } from '../datasets/dataset-spec.js';
import { bitAt, type RowPicks } from '../columns/take-rows.js';
import type { KeyRanges } from './key-ranges.js';
import type { SeriesMap } from '../series-stats.js';
import { TimeRunsBuilder, type TimeRuns } from './time-runs.js';

const TWO32 = 4294967296;

export interface KeyColumns {
  readonly length: number;
  /** Every row's chunk and index in it, in arrival order (chunks in the order given). */
  readonly all: RowPicks;
  readonly groups: readonly string[];
  readonly groupId: Int32Array;
  /** Numbers, or digit strings for an order column of text. */
  readonly order: Float64Array | readonly string[];
  /** The series time; NaN where null. */
  readonly time: Float64Array;
  /** 1 where the sticky flag is set (absent: no sticky column). */
  readonly sticky: Uint8Array | undefined;
}

function child(batch: RecordBatch, name: string): Data {
  const index = batch.schema.fields.findIndex((f) => f.name === name);
  if (index < 0) throw new TypeError(`columnar keys: no column ${name}`);
  return batch.data.children[index]!;
}

function isNull(d: Data, i: number): boolean {
  if (d.nullCount === 0) return false;
  const at = d.offset + i;
  return !bitAt(d.nullBitmap!, at);
}

/** Instants and integers as numbers (safe integers by validation), floats as they are. */
function numbersOf(d: Data, out: Float64Array, at: number): void {
  const v = d.values as ArrayBufferView;
  // Key columns rarely hold a null: then no row asks.
  const nulls = d.nullCount > 0;
  if (DataType.isFloat(d.type)) {
    const f = v as Float64Array;
    for (let i = 0; i < d.length; i++) out[at + i] = nulls && isNull(d, i) ? Number.NaN : f[i]!;
    return;
  }
  if ((v as Int32Array).BYTES_PER_ELEMENT === 8) {
    // A view needs 4-byte alignment; decoded and built buffers have it, anything else is copied.
    const aligned = v.byteOffset % 4 === 0 ? v : new Uint8Array(v.buffer, v.byteOffset, d.length * 8).slice();
    const words = new Uint32Array(aligned.buffer, aligned.byteOffset, d.length * 2);
    const highs = new Int32Array(aligned.buffer, aligned.byteOffset, d.length * 2);
    for (let i = 0; i < d.length; i++) out[at + i] = nulls && isNull(d, i) ? Number.NaN : highs[2 * i + 1]! * TWO32 + words[2 * i]!;
    return;
  }
  const ints = v as Int32Array;
  for (let i = 0; i < d.length; i++) out[at + i] = nulls && isNull(d, i) ? Number.NaN : ints[i]!;
}

function textAt(d: Data, i: number): string {
  const offsets = d.valueOffsets as Int32Array;
  const bytes = d.values as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset + offsets[i]!, offsets[i + 1]! - offsets[i]!).toString('utf8');
}

/** Group ids of a UTF-8 column: rows come in runs of one code, so equal bytes reuse the last id. */
function groupIdsOf(d: Data, ids: Int32Array, at: number, groups: string[], index: Map<string, number>): void {
  const offsets = d.valueOffsets as Int32Array;
  const bytes = d.values as Uint8Array;
  let lastStart = -1;
  let lastEnd = -1;
  let lastId = -1;
  for (let i = 0; i < d.length; i++) {
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    let same = lastId >= 0 && end - start === lastEnd - lastStart;
    for (let k = 0; same && k < end - start; k++) same = bytes[start + k] === bytes[lastStart + k];
    if (!same) {
      const text = isNull(d, i) ? '' : textAt(d, i);
      let id = index.get(text);
      if (id === undefined) {
        id = groups.length;
        groups.push(text);
        index.set(text, id);
      }
      lastId = id;
    }
    ids[at + i] = lastId;
    lastStart = start;
    lastEnd = end;
  }
}

/** The key columns of `batches` (one schema), rows numbered in arrival order. */
export function keyColumns(batches: readonly RecordBatch[], spec: ColumnarKeySpec): KeyColumns {
  const length = batches.reduce((n, b) => n + b.numRows, 0);
  const chunk = new Int32Array(length);
  const row = new Int32Array(length);
  const groupId = new Int32Array(length);
  const groups: string[] = [];
  const index = new Map<string, number>();
  const textOrder = batches.length > 0 && DataType.isUtf8(child(batches[0]!, spec.order).type);
  const order: Float64Array | string[] = textOrder ? new Array<string>(length) : new Float64Array(length);
  // A K-line's order is its time: read once (neither array is written after this).
  const timeIsOrder = spec.time === spec.order && !textOrder;
  const time = timeIsOrder ? (order as Float64Array) : new Float64Array(length);
  const sticky = spec.sticky === undefined ? undefined : new Uint8Array(length);
  let at = 0;
  // A loop, not forEach: a callback made per call loses its optimized code at every full
  // collection (V8 keeps it only while a closure of it lives) and was compiled again and again.
  for (let c = 0; c < batches.length; c++) {
    const batch = batches[c]!;
    const n = batch.numRows;
    for (let i = 0; i < n; i++) {
      chunk[at + i] = c;
      row[at + i] = i;
    }
    groupIdsOf(child(batch, spec.group), groupId, at, groups, index);
    const orderData = child(batch, spec.order);
    if (textOrder) for (let i = 0; i < n; i++) (order as string[])[at + i] = textAt(orderData, i);
    else numbersOf(orderData, order as Float64Array, at);
    if (!timeIsOrder) numbersOf(child(batch, spec.time), time, at);
    if (sticky !== undefined) {
      const flag = child(batch, spec.sticky!);
      const bits = flag.values as Uint8Array;
      const nulls = flag.nullCount > 0;
      for (let i = 0; i < n; i++) {
        const b = flag.offset + i;
        sticky[at + i] = !(nulls && isNull(flag, i)) && bitAt(bits, b) ? 1 : 0;
      }
    }
    at += n;
  }
  return { length, all: { chunk, row }, groups, groupId, order, time, sticky };
}

/** Runs this short on average are left to the sort (a run is an object, and nothing is saved). */
const MIN_MEAN_RUN = 8;

/**
 * The common case without a sort: rows that arrive in runs of one group each, strictly ascending
 * (a page of one series), and no two runs of a group overlapping or touching (the pages of a
 * walk). Every row then survives, and the key order is the runs' order by their first key.
 * Undefined otherwise (some key may repeat, or an order is NaN): the sort decides.
 */
function disjointRuns(rank: Int32Array, order: Float64Array, length: number): Int32Array | undefined {
  const starts: number[] = [0];
  if (length > 0 && Number.isNaN(order[0]!)) return undefined;
  for (let i = 1; i < length; i++) {
    const o = order[i]!;
    if (Number.isNaN(o)) return undefined;
    // A run is one group's: a page of one series, not the pages of several that happen to rise.
    if (rank[i] !== rank[i - 1] || o <= order[i - 1]!) {
      starts.push(i);
      if (starts.length * MIN_MEAN_RUN > length) return undefined;
    }
  }
  const ends = starts.map((_, k) => (k + 1 < starts.length ? starts[k + 1]! : length));
  const byFirstKey = starts.map((_, k) => k).sort((a, b) => rank[starts[a]!]! - rank[starts[b]!]! || order[starts[a]!]! - order[starts[b]!]!);
  for (let k = 1; k < byFirstKey.length; k++) {
    const last = ends[byFirstKey[k - 1]!]! - 1;
    const first = starts[byFirstKey[k]!]!;
    if (rank[last] === rank[first] && order[last]! >= order[first]!) return undefined;
  }
  const out = new Int32Array(length);
  let n = 0;
  for (const k of byFirstKey) for (let i = starts[k]!; i < ends[k]!; i++) out[n++] = i;
  return out;
}

/**
 * The surviving row of each key, in key order (group text, then order): among rows of one key the
 * last to arrive, except that a row with the sticky flag is never replaced by one without it (the
 * spec's `prefer` for a final bar), exactly as the row path folds them.
 */
export function dedupedOrder(keys: KeyColumns): Int32Array {
  const { length, groups, groupId, order, sticky } = keys;
  const rankOf = new Int32Array(groups.length);
  groups
    .map((g, id) => [g, id] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .forEach(([, id], rank) => {
      rankOf[id] = rank;
    });
  const rank = new Int32Array(length);
  for (let i = 0; i < length; i++) rank[i] = rankOf[groupId[i]!]!;
  if (order instanceof Float64Array) {
    const runs = disjointRuns(rank, order, length);
    if (runs !== undefined) return runs;
  }
  const sorted = new Int32Array(length);
  for (let i = 0; i < length; i++) sorted[i] = i;
  if (order instanceof Float64Array) sorted.sort((a, b) => rank[a]! - rank[b]! || order[a]! - order[b]! || a - b);
  else sorted.sort((a, b) => rank[a]! - rank[b]! || compareOrder(order[a]!, order[b]!) || a - b);
  const out = new Int32Array(length);
  let kept = 0;
  let i = 0;
  while (i < length) {
    let end = i + 1;
    const first = sorted[i]!;
    while (end < length && rank[sorted[end]!] === rank[first] && order[sorted[end]!] === order[first]) end++;
    // Arrival order within the key: the last, or the last sticky one when any is sticky.
    let winner = sorted[end - 1]!;
    if (sticky !== undefined && sticky[winner] === 0) {
      for (let k = end - 2; k >= i; k--) {
        if (sticky[sorted[k]!] === 1) {
          winner = sorted[k]!;
          break;
        }
      }
    }
    out[kept++] = winner;
    i = end;
  }
  return out.slice(0, kept);
}

/** Global row numbers → where each lives (for takeRows). */
export function picksOf(keys: KeyColumns, rows: Int32Array): RowPicks {
  const chunk = new Int32Array(rows.length);
  const row = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    chunk[i] = keys.all.chunk[rows[i]!]!;
    row[i] = keys.all.row[rows[i]!]!;
  }
  return { chunk, row };
}

/**
 * Key ranges, `quotelake.series` and time runs (time-runs.ts) of the selected rows (every row when
 * `rows` is absent), in the order given: the file's order.
 */
export function rangesAndSeries(keys: KeyColumns, rows?: Int32Array): { ranges: KeyRanges; series: SeriesMap; times: TimeRuns | undefined } {
  const ranges: KeyRanges = {};
  const runs = new TimeRunsBuilder(keys.groups.length);
  const series: SeriesMap = new Map();
  const n = rows === undefined ? keys.length : rows.length;
  const lo: (Order | undefined)[] = new Array(keys.groups.length);
  const hi: (Order | undefined)[] = new Array(keys.groups.length);
  // Numeric orders (bar times) are kept unboxed here, a number a row otherwise became a heap object.
  const numeric = keys.order instanceof Float64Array ? keys.order : undefined;
  const loN = new Float64Array(keys.groups.length);
  const hiN = new Float64Array(keys.groups.length);
  const count = new Float64Array(keys.groups.length);
  const first = new Float64Array(keys.groups.length).fill(Number.NaN);
  const last = new Float64Array(keys.groups.length).fill(Number.NaN);
  for (let k = 0; k < n; k++) {
    const i = rows === undefined ? k : rows[k]!;
    const g = keys.groupId[i]!;
    if (numeric !== undefined) {
      const o = numeric[i]!;
      // As compareOrder (a - b): a NaN neither replaces nor is replaced, but is kept when first.
      if (count[g] === 0) loN[g] = hiN[g] = o;
      else {
        if (o < loN[g]!) loN[g] = o;
        if (o > hiN[g]!) hiN[g] = o;
      }
    } else {
      const o = keys.order[i]!;
      if (lo[g] === undefined || compareOrder(o, lo[g]!) < 0) lo[g] = o;
      if (hi[g] === undefined || compareOrder(o, hi[g]!) > 0) hi[g] = o;
    }
    count[g]!++;
    const t = keys.time[i]!;
    runs.add(g, t);
    if (!Number.isNaN(t)) {
      if (!(t >= first[g]!)) first[g] = t;
      if (!(t <= last[g]!)) last[g] = t;
    }
  }
  keys.groups.forEach((group, g) => {
    if (count[g] === 0) return;
    ranges[group] = numeric !== undefined ? [loN[g]!, hiN[g]!] : [lo[g]!, hi[g]!];
    series.set(group, { rows: count[g]!, first: Number.isNaN(first[g]!) ? null : first[g]!, last: Number.isNaN(last[g]!) ? null : last[g]! });
  });
  return { ranges, series, times: runs.runs(keys.groups) };
}
