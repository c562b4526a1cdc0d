/**
 * The rows of one hive partition held in memory until they are flushed to a staged file: as
 * columns when the dataset has a column builder, else as objects, with the key range of each group
 * and the `quotelake.series` counts of what is held.
 */
import type { KlineLane } from '../../core/kline-lane.js';
import type { ColumnBuilder } from '../columns/column-builder.js';
import { compareOrder, type Order } from '../datasets/dataset-spec.js';
import { addTimes, countRows, type SeriesMap, type SeriesStats } from '../series-stats.js';

type Ranges = Map<string, [Order, Order]>;

export class PartitionBuffer<R> {
  /** Rows kept as objects when the dataset has no column builder. */
  rows: R[] = [];
  bytes = 0;
  readonly ranges: Ranges = new Map();
  /** Set when a row's key is not above every earlier key of its group: it may repeat one. */
  maybeDuplicates = false;
  private lastGroup: string | undefined;
  private lastRange: [Order, Order] | undefined;
  /** `quotelake.series` of the buffered rows (exact while no key repeats; a dedupe recounts). */
  readonly series: SeriesMap = new Map();
  private lastSeriesKey: string | undefined;
  private lastSeries: SeriesStats | undefined;

  constructor(readonly builder: ColumnBuilder<R> | undefined) {}

  get length(): number {
    return this.builder !== undefined ? this.builder.length : this.rows.length;
  }

  add(row: R, group: string, order: Order, bytes: number, series: string, time: number | null): void {
    if (this.builder !== undefined) this.builder.append(row);
    else this.rows.push(row);
    this.held(group, order, bytes, series, time);
  }

  /**
   * Records [from, to) of a parsed K-line lane, as add() of each in turn (the sink checked that the
   * builder reads lanes): one series, one group, keys strictly ascending from `first` to `last`.
   */
  addLaneRun(lane: KlineLane, from: number, to: number, group: string, first: { order: Order; time: number | null }, last: { order: Order; time: number | null }, bytes: number, series: string): void {
    this.builder!.appendLaneRun!(lane, from, to);
    this.bytes += bytes;
    this.counted(series, to - from, first.time, last.time);
    // What add() of each row does to the group's range: the first row may fall inside it (a
    // duplicate maybe), every later one is above the row before.
    this.ranged(group, first.order);
    if (to - from > 1) this.ranged(group, last.order);
  }

  private held(group: string, order: Order, bytes: number, series: string, time: number | null): void {
    this.bytes += bytes;
    this.counted(series, 1, time, time);
    this.ranged(group, order);
  }

  /** `rows` more rows of `series`, timed from `first` to `last`. */
  private counted(series: string, rows: number, first: number | null, last: number | null): void {
    // Rows arrive in runs of one series: one map lookup per run, not per row.
    if (series !== this.lastSeriesKey || this.lastSeries === undefined) {
      this.lastSeries = countRows(this.series, series);
      this.lastSeriesKey = series;
    }
    addTimes(this.lastSeries, rows, first, last);
  }

  private ranged(group: string, order: Order): void {
    let range = group === this.lastGroup ? this.lastRange : this.ranges.get(group);
    if (range === undefined) {
      range = [order, order];
      this.ranges.set(group, range);
    } else if (compareOrder(order, range[1]) > 0) {
      range[1] = order;
    } else {
      this.maybeDuplicates = true;
      if (compareOrder(order, range[0]) < 0) range[0] = order;
    }
    this.lastGroup = group;
    this.lastRange = range;
  }
}

