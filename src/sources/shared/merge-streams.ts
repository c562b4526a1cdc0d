/**
 * Runs per-stream generators side by side (at most `concurrency` at once) and yields their batches
 * as they arrive, so a slow series does not hold the others while the client's limiter decides
 * the pace. Each generator still yields its own batches in order, which is what checkpoints need.
 *
 * Each stream reads up to `readAhead` batches ahead of the consumer: a backward walk asks for its
 * next pages only when it is resumed, so a stream held at its `yield` while the run writes a batch
 * would leave the plan's request slots idle. Batches read ahead and not taken (an abort, an error)
 * are dropped; their checkpoints were never committed, so the next run fetches them again.
 */

interface Lane<T> {
  readonly it: AsyncGenerator<T>;
  /** Batches read and not yet taken. */
  held: number;
  reading: boolean;
  finished: boolean;
}

export async function* mergeStreams<T>(
  makers: readonly (() => AsyncGenerator<T>)[],
  concurrency: number,
  readAhead = 2,
): AsyncGenerator<T> {
  const lanes = new Set<Lane<T>>();
  /** Every stream's results (or its failure) in the order they arrived; an end follows its last batch. */
  const arrived: ({ lane: Lane<T>; result: IteratorResult<T> } | { lane: Lane<T>; error: unknown })[] = [];
  let wake: (() => void) | undefined;
  let started = 0;
  let stopped = false;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  // Every read has its rejection handled here, so a stream that fails after the consumer stopped
  // asking (an abort while a page is in flight) never becomes an unhandled rejection.
  const read = (lane: Lane<T>): void => {
    if (stopped || lane.reading || lane.finished || lane.held >= Math.max(1, readAhead)) return;
    lane.reading = true;
    lane.it.next().then(
      (result) => {
        lane.reading = false;
        if (result.done) lane.finished = true;
        else lane.held++;
        arrived.push({ lane, result });
        read(lane);
        notify();
      },
      (error: unknown) => {
        lane.reading = false;
        lane.finished = true;
        arrived.push({ lane, error });
        notify();
      },
    );
  };
  const start = () => {
    while (lanes.size < Math.max(1, concurrency) && started < makers.length) {
      const lane: Lane<T> = { it: makers[started++]!(), held: 0, reading: false, finished: false };
      lanes.add(lane);
      read(lane);
    }
  };
  try {
    start();
    while (lanes.size > 0) {
      const next = arrived.shift();
      if (next === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      // A stream's failure ends the merge where it arrived: what came before it was yielded.
      if ('error' in next) throw next.error;
      if (next.result.done) {
        lanes.delete(next.lane);
        start();
        continue;
      }
      next.lane.held--;
      read(next.lane);
      yield next.result.value;
    }
  } finally {
    // Stop the others (an abort, an error, or the consumer leaving early); what they read ahead is dropped.
    stopped = true;
    for (const lane of lanes) void lane.it.return(undefined as never).catch(() => undefined);
  }
}
