/**
 * A file's rows as stretches of its columns instead of a copy: when the rows a file takes, in file
 * order, are long stretches of consecutive rows of one set of columns (the pages of a backward
 * walk, newest first, put in key order), the file names them as `[first row, count]` pairs and its
 * writer takes each stretch as a slice of every column (Arrow's `Data.slice`: a view, no bytes
 * moved). take-rows.ts copies the rows instead when the stretches are short.
 */
import type { Data } from 'apache-arrow';
import type { RowPicks } from './take-rows.js';

/** Fewer rows than this a stretch on average, and copying the rows is cheaper than slicing. */
const MIN_AVERAGE_STRETCH = 64;

/**
 * The picks as `[first row, count]` pairs in pick order, when every pick is of chunk 0 and the
 * stretches average at least MIN_AVERAGE_STRETCH rows; undefined otherwise.
 */
export function rowStretches(picks: RowPicks): Int32Array | undefined {
  const n = picks.row.length;
  const most = Math.floor(n / MIN_AVERAGE_STRETCH);
  const pairs: number[] = [];
  for (let i = 0; i < n; ) {
    if (picks.chunk[i] !== 0 || pairs.length >= 2 * most) return undefined;
    const row = picks.row[i]!;
    let j = i + 1;
    while (j < n && picks.chunk[j] === 0 && picks.row[j] === row + (j - i)) j++;
    pairs.push(row, j - i);
    i = j;
  }
  return Int32Array.from(pairs);
}

/** The stretches of `columns` as record batches' columns, in order; all of them once when `stretches` is absent. */
export function sliceStretches(columns: readonly Data[], stretches: Int32Array | undefined): Data[][] {
  if (stretches === undefined) return [[...columns]];
  const out: Data[][] = [];
  for (let s = 0; s + 1 < stretches.length; s += 2) {
    const first = stretches[s]!;
    const count = stretches[s + 1]!;
    out.push(columns.map((column) => column.slice(first, count)));
  }
  return out;
}
