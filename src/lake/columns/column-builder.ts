/**
 * Columnar buffering for a partition: rows are turned into column buffers as they arrive (while
 * their strings are still in cache) and then dropped, so buffered data is compact typed arrays
 * rather than row objects the GC must promote, trace and copy until the flush.
 */
import type { Data } from 'apache-arrow';

import type { KlineLane } from '../../core/kline-lane.js';

export interface ColumnBuilder<R> {
  /** Rows appended so far. */
  readonly length: number;
  /** Throws SinkError when a value does not fit its column. */
  append(row: R): void;
  /**
   * Records [from, to) of a parsed K-line lane (core/kline-lane.ts), the same as append() of each,
   * for a builder that reads lanes; the caller has checked that their values fit the columns.
   */
  appendLaneRun?(lane: KlineLane, from: number, to: number): void;
  /**
   * The Arrow children of the dataset's schema, in schema order, for every appended row. Called
   * once, as the builder's last use: the sink may move the buffers to an encode worker (detaching
   * them here), so they must belong to this builder alone, never to a cache or scratch array that
   * outlives it.
   */
  columns(): Data[];
  /** Same as the spec's metadata over the appended rows. */
  metadata(): Record<string, string>;
  /** The appended rows rebuilt (exact values), for the rare de-duplication path. */
  rows(): R[];
}

/** Distinct strings in first-seen order; repeated values hit the one-entry cache. */
export class StringDictionary {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  private last: string | undefined;
  private lastId = -1;

  id(value: string): number {
    if (value === this.last) return this.lastId;
    let id = this.index.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.index.set(value, id);
    }
    this.last = value;
    this.lastId = id;
    return id;
  }
}
