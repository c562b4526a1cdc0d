/**
 * Runs per-series generators side by side and advances them through time together (time-major),
 * for the lake's sake: it is partitioned by day, and one day holds every series. Series fetched in
 * waves (the first few walk their whole span, then the next few) make every commit of a later wave
 * merge into and rewrite the day partitions an earlier wave already wrote; series that move in
 * lockstep complete each day close together, so a mid-run commit splits only the few days at the
 * frontier.
 *
 * At most `concurrency` reads (one `next()` of a series) are in flight at once, as in mergeStreams;
 * which series reads next is chosen by `progressOf` its latest batch: the one furthest behind goes
 * first, and one that has not started is furthest behind of all. A series whose batches say nothing
 * of their position keeps the place it had (so one that never says, such as a newest-bars-only
 * stock, is taken as soon as a slot frees and soon finishes).
 *
 * Each series keeps its own batch order (checkpoints need it) and reads up to `readAhead` batches
 * ahead of the consumer, so a series held at its `yield` while the run writes a batch does not leave
 * the plan's request slots idle. A started series is not free while it waits its turn (a backward
 * walk keeps its pages-ahead in flight), so at most `openLanes` series are started and unfinished at
 * once: the next one starts when one ends. A failure ends the merge once what its series read before
 * it is taken, whatever the others hold; on an abort, an error or the consumer leaving, the started
 * series are stopped and what they read ahead is dropped (its checkpoints were never committed, so
 * the next run fetches it again).
 */

export interface FrontierOptions<T> {
  /** Reads in flight at once (series advancing side by side). */
  readonly concurrency: number;
  /** How far a series has gone once this batch is read, larger = further along; undefined = unchanged. */
  readonly progressOf: (batch: T) => number | undefined;
  /** Batches a series reads ahead of the consumer (and `concurrency` times this in all). */
  readonly readAhead?: number;
  /** Series started and not yet finished at once. */
  readonly openLanes?: number;
}

/** A batch read and not yet taken, with where its series stood before it; or the series' end or failure. */
type Arrival<T> = { value: T; from: number } | { done: true } | { error: unknown };

interface Lane<T> {
  /** The maker's index: ties go to the series listed first. */
  readonly index: number;
  readonly it: AsyncGenerator<T>;
  /** From progressOf of the newest batch read; -Infinity until a batch says. */
  progress: number;
  /** What was read and not yet taken, in the series' own order. */
  readonly arrived: Arrival<T>[];
  reading: boolean;
  finished: boolean;
}

export async function* mergeByFrontier<T>(makers: readonly (() => AsyncGenerator<T>)[], options: FrontierOptions<T>): AsyncGenerator<T> {
  const concurrency = Math.max(1, options.concurrency);
  const readAhead = Math.max(1, options.readAhead ?? 2);
  // As many batches held in all as mergeStreams holds (concurrency series x readAhead): series
  // ahead of the others must not fill memory while the consumer is the slower side.
  const heldInAll = concurrency * readAhead;
  const openLanes = Math.max(concurrency, options.openLanes ?? 64);
  const open = new Set<Lane<T>>();
  let wake: (() => void) | undefined;
  let started = 0;
  let reads = 0;
  let held = 0;
  let stopped = false;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  // The open series furthest behind that may read now; a new series when none is behind it.
  const pick = (): Lane<T> | undefined => {
    let best: Lane<T> | undefined;
    for (const lane of open) {
      if (lane.reading || lane.finished || lane.arrived.length >= readAhead) continue;
      if (best === undefined || lane.progress < best.progress || (lane.progress === best.progress && lane.index < best.index)) best = lane;
    }
    if ((best === undefined || best.progress > -Infinity) && open.size < openLanes && started < makers.length) {
      const lane: Lane<T> = { index: started, it: makers[started++]!(), progress: -Infinity, arrived: [], reading: false, finished: false };
      open.add(lane);
      return lane;
    }
    return best;
  };

  // Every read has its rejection handled here, so a series that fails after the consumer stopped
  // asking (an abort while a page is in flight) never becomes an unhandled rejection.
  const read = (lane: Lane<T>): void => {
    lane.reading = true;
    reads++;
    lane.it.next().then(
      (result) => {
        lane.reading = false;
        reads--;
        if (result.done) {
          lane.finished = true;
          lane.arrived.push({ done: true });
        } else {
          held++;
          lane.arrived.push({ value: result.value, from: lane.progress });
          const progress = options.progressOf(result.value);
          if (progress !== undefined) lane.progress = progress;
        }
        schedule();
        notify();
      },
      (error: unknown) => {
        lane.reading = false;
        lane.finished = true;
        reads--;
        lane.arrived.push({ error });
        notify();
      },
    );
  };

  const schedule = (): void => {
    while (!stopped && reads < concurrency && held + reads < heldInAll) {
      const lane = pick();
      if (lane === undefined) return;
      read(lane);
    }
  };

  // What the consumer gets next: the batch that starts furthest behind (a series' end or failure
  // first), as a merge of the series by time. A batch read ahead by a series further along waits
  // while a series behind it is still reading (its page is on the way), so the run writes time-major
  // even when a series' pages come slower (the limiter's queue, its own pages-ahead not yet back).
  // Only the first `openLanes` series are waited for: one started later, when others have walked far
  // already, catches up by its read priority alone (waiting for it would hold the run to its pace).
  const take = (): { lane: Lane<T>; arrival: Arrival<T> } | undefined => {
    let best: Lane<T> | undefined;
    let bestFrom = Infinity;
    let behindReading = Infinity;
    for (const lane of open) {
      const head = lane.arrived[0];
      if (head === undefined) {
        if (lane.reading && lane.index < openLanes) behindReading = Math.min(behindReading, lane.progress);
        continue;
      }
      const from = 'value' in head ? head.from : -Infinity;
      if (best === undefined || from < bestFrom || (from === bestFrom && lane.index < best.index)) {
        best = lane;
        bestFrom = from;
      }
    }
    if (best === undefined || behindReading < bestFrom) return undefined;
    return { lane: best, arrival: best.arrived.shift()! };
  };

  try {
    schedule();
    while (open.size > 0 || started < makers.length) {
      const next = take();
      if (next === undefined) {
        // Something is in flight: either a series behind is reading, or nothing is held; every change
        // of state (an arrival, a batch taken, a series ended) schedules again.
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      const { lane, arrival } = next;
      // A series' failure ends the merge: what it read before the failure was yielded.
      if ('error' in arrival) throw arrival.error;
      if ('done' in arrival) {
        open.delete(lane);
        schedule();
        continue;
      }
      held--;
      schedule();
      yield arrival.value;
    }
  } finally {
    // Stop the others (an abort, an error, or the consumer leaving early); what they read ahead is dropped.
    stopped = true;
    for (const lane of open) void lane.it.return(undefined as never).catch(() => undefined);
  }
}
