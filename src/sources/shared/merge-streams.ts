/**
 * Runs per-stream generators side by side (at most `concurrency` at once) and yields their batches
 * as they arrive, so a slow series does not hold the others while the client's limiter decides
 * the pace. Each generator still yields its own batches in order, which is what checkpoints need.
 */
/**
 * The next read of one stream. It is raced only while the consumer asks for more: a consumer that
 * stops (an abort) leaves it pending, and a stream that then fails (QL_ABORTED) must not become an
 * unhandled rejection before the cleanup below gets to it.
 */
function pendingRead<T>(it: AsyncGenerator<T>, id: number): Promise<{ id: number; r: IteratorResult<T> }> {
  const next = it.next().then((r) => ({ id, r }));
  next.catch(() => undefined);
  return next;
}

export async function* mergeStreams<T>(
  makers: readonly (() => AsyncGenerator<T>)[],
  concurrency: number,
): AsyncGenerator<T> {
  const running = new Map<number, { it: AsyncGenerator<T>; next: Promise<{ id: number; r: IteratorResult<T> }> }>();
  let started = 0;
  const start = () => {
    while (running.size < Math.max(1, concurrency) && started < makers.length) {
      const id = started++;
      const it = makers[id]!();
      running.set(id, { it, next: pendingRead(it, id) });
    }
  };
  try {
    start();
    while (running.size > 0) {
      const { id, r } = await Promise.race([...running.values()].map((x) => x.next));
      const entry = running.get(id)!;
      if (r.done) {
        running.delete(id);
        start();
        continue;
      }
      entry.next = pendingRead(entry.it, id);
      yield r.value;
    }
  } finally {
    // Stop the others (an abort, an error, or the consumer leaving early); their pending reads are dropped.
    for (const { it, next } of running.values()) {
      next.catch(() => undefined);
      void it.return(undefined as never).catch(() => undefined);
    }
  }
}
