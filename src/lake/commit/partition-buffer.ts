/**
 * The rows of one hive partition held in memory until they are flushed to a staged file: as
 * columns when the dataset has a column builder, else as objects, with the key range of each group
 * and the `quotelake.series` counts of what is held.
 */
import type { KlineLane } from '../../core/kline-lane.js';
import type { ColumnBuilder } from '../columns/column-builder.js';
import { compareOrder, type Order } from '../datasets/dataset-spec.js';
import { addTime, countRow, type SeriesMap, type SeriesStats } from '../series-stats.js';

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

  /** Record `i` of a parsed K-line lane, as add() of that record (the sink checked the builder reads lanes). */
  addLane(lane: KlineLane, i: number, group: string, order: Order, bytes: number, series: string, time: number | null): void {
    this.builder!.appendLane!(lane, i);
    this.held(group, order, bytes, series, time);
  }

  private held(group: string, order: Order, bytes: number, series: string, time: number | null): void {
    this.bytes += bytes;
    // Rows arrive in runs of one series: one map lookup per run, not per row.
    if (series === this.lastSeriesKey && this.lastSeries !== undefined) addTime(this.lastSeries, time);
    else {
      this.lastSeries = countRow(this.series, series, time);
      this.lastSeriesKey = series;
    }
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

