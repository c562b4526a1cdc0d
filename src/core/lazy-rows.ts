/**
 * An array whose elements are made only when something reads them, with an optional columnar
 * description of the same rows beside it (a lane, see kline-lane.ts).
 *
 * Why: a K-line backfill used to make a row object (and seven strings) per bar at each stage
 * (scanner, source, parse-decimals) only for the Parquet sink to copy numbers out of them again;
 * those objects were most of what the run allocated and collected. Stages that know a lane (the
 * K-line source, parse-decimals, the partitioned sinks) hand it on and never touch an element; any
 * other consumer (a user's transform, the NDJSON sink, JSON of a batch, a test) reads the array
 * as always, and its first read makes every element at once, exactly what the eager path made.
 *
 * A lane goes with the array itself: a stage that builds a new array (a filter, a copy) leaves the
 * lane behind and the next stage reads elements. A batch's records are read-only by contract, but
 * a write (a sort in place, a push) still works as on any array: it makes the elements first and
 * drops the lane, so no stage ever reads a lane that no longer describes the elements.
 */

import { inspect, type InspectOptions } from 'node:util';

/** A columnar description of an array's rows. */
export interface Lane {
  /** About what one row weighs in memory (what rechunk bounds batches by). */
  readonly rowBytes: number;
  /** The lane of rows [from, to), for a batch split into pieces (rechunk); without it a piece has none. */
  slice?(from: number, to: number): Lane;
  /**
   * The records may be read at any later time (a stage of the user's own kept them): whatever
   * backs the lane must stay readable, never be handed back for reuse.
   */
  pin?(): void;
}

/**
 * How a lazy array answers for its lane: a key its get trap alone knows (the target has no such
 * property). Not a WeakMap from array to lane: the scavenger keeps a WeakMap's young entries alive,
 * so every batch's page outlived its batch and the old generation filled with them.
 */
const LANE = Symbol('lane');

/**
 * An array of `length` elements that `make` builds all at once on the first read of anything but
 * its length (or its lane). `make` must return exactly `length` elements.
 */
export function lazyRows<T>(length: number, make: () => readonly T[], firstLane?: Lane): readonly T[] {
  const target = new Array<T>(length);
  let lane = firstLane;
  let made = false;
  const ensure = (): void => {
    if (made) return;
    // Marked made only once the elements are in: a make() that throws (a recycled page) throws
    // again at the next read, never leaves an array of holes that reads as undefined rows.
    const rows = make();
    if (rows.length !== length) throw new Error(`lazyRows: made ${rows.length} rows, expected ${length}`);
    for (let i = 0; i < length; i++) target[i] = rows[i]!;
    made = true;
  };
  /** Before any change: the elements made, and the lane no longer theirs. */
  const changing = (): void => {
    ensure();
    lane = undefined;
  };
  // console.log and util.inspect read the target itself, past the traps (a proxy is shown as its
  // target): they would print `[ <2 empty items> ]`. They ask the target for this instead.
  Object.defineProperty(target, inspect.custom, {
    value: (_depth: number, options: InspectOptions) => {
      ensure();
      return inspect([...target], options);
    },
  });
  const rows = new Proxy(target, {
    get(t, key, receiver) {
      if (key === 'length') return t.length;
      if (key === LANE) return lane;
      ensure();
      return Reflect.get(t, key, receiver) as unknown;
    },
    has(t, key) {
      ensure();
      return Reflect.has(t, key);
    },
    ownKeys(t) {
      ensure();
      return Reflect.ownKeys(t);
    },
    getOwnPropertyDescriptor(t, key) {
      ensure();
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    set(t, key, value) {
      changing();
      return Reflect.set(t, key, value);
    },
    defineProperty(t, key, descriptor) {
      changing();
      return Reflect.defineProperty(t, key, descriptor);
    },
    deleteProperty(t, key) {
      changing();
      return Reflect.deleteProperty(t, key);
    },
    setPrototypeOf(t, prototype) {
      changing();
      return Reflect.setPrototypeOf(t, prototype);
    },
  });
  return rows;
}

/** The lane `records` was made with, when it was made by lazyRows with one. */
export function laneOf(records: readonly unknown[]): Lane | undefined {
  return (records as unknown as { [LANE]?: Lane })[LANE];
}
