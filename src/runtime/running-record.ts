/**
 * The record of a run under way (`runs/<runId>.json`, status `running`), kept current between its
 * commits. The run writes it at its start and at each commit; a commit may be a minute or 2,000
 * batches away, and a run SIGKILLed before it left a record of 0 requests although the service had
 * charged dozens to the daily quota. So a timer also rewrites it every `everyMs`, only when the
 * counts moved since the last write.
 *
 * Writes go one after another, so an earlier one never lands over a later one; `stop()` ends the
 * refreshes and waits for the one under way, so nothing lands after the run's final record (nor
 * after the next run's `interrupted` mark of a run that was stopped and is gone).
 */

/** Between refreshes: a killed run's record is at most this far behind what it sent and received. */
export const RUNNING_RECORD_EVERY_MS = 2_000;

/**
 * A repeating timer: calls `tick` every `ms` until the returned function is called. `tick`'s
 * promise settles when its write has landed (a test that ticks by hand awaits it); it never rejects.
 */
export type EveryTimer = (ms: number, tick: () => Promise<void>) => () => void;

/** Real time; unref'd, so the timer alone never keeps a finished process alive. */
export const realEvery: EveryTimer = (ms, tick) => {
  const timer = setInterval(() => void tick(), ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface RunningRecordOptions {
  /** Writes the record as it is now (the run builds it when called, so the write has the latest counts). */
  readonly write: () => Promise<unknown>;
  /** Subscribes to changes of the record's counts (requests, rows, quota); returns the unsubscribe. */
  readonly onChange: (changed: () => void) => () => void;
  /** False: a refresh now would write for a run that must not (its lease is lost): skipped. */
  readonly mayRefresh?: () => boolean;
  /** A refresh that failed: the record is not state, so the run goes on (the next write mends it). */
  readonly onError?: (error: unknown) => void;
  readonly everyMs?: number;
  readonly every?: EveryTimer;
}

export interface RunningRecord {
  /** Writes the record now, after any write under way (the run's start and each commit); its error is the caller's. */
  write(): Promise<void>;
  /** What the timer does: writes the record if its counts moved since the last write, else nothing. */
  refresh(): Promise<void>;
  /** No more writes of any kind; resolves once the write under way, if any, has landed. */
  stop(): Promise<void>;
}

export function startRunningRecord(options: RunningRecordOptions): RunningRecord {
  let chain: Promise<void> = Promise.resolve();
  let changed = false;
  let stopped = false;
  /** Writes queued or under way: a refresh waits for them (a slow store must not pile writes up). */
  let busy = 0;
  const unsubscribe = options.onChange(() => {
    changed = true;
  });
  const enqueue = (refreshing: boolean): Promise<void> => {
    busy++;
    const next = chain.then(async () => {
      try {
        // A stop that came while this write waited its turn wins: the final record follows it.
        if (stopped) return;
        // Asked again when the write's turn comes: the lease may have gone meanwhile.
        if (refreshing && options.mayRefresh?.() === false) return;
        // Counts that move from here on are the next write's.
        changed = false;
        try {
          await options.write();
        } catch (error) {
          // Not written: the next tick tries again.
          changed = true;
          throw error;
        }
      } finally {
        busy--;
      }
    });
    chain = next.catch(() => undefined);
    return next;
  };
  const refresh = async (): Promise<void> => {
    if (stopped || !changed || busy > 0 || options.mayRefresh?.() === false) return;
    try {
      await enqueue(true);
    } catch (error) {
      try {
        options.onError?.(error);
      } catch {
        /* a timer's tick must never reject */
      }
    }
  };
  const cancel = (options.every ?? realEvery)(options.everyMs ?? RUNNING_RECORD_EVERY_MS, refresh);
  return {
    write: async () => (stopped ? undefined : enqueue(false)),
    refresh,
    async stop() {
      if (!stopped) {
        stopped = true;
        cancel();
        unsubscribe();
      }
      await chain;
    },
  };
}
