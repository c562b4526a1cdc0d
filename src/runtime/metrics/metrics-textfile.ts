/**
 * The node_exporter textfile collector's way in: the exposition text written to one file, atomically
 * (a temp file renamed over it: the collector never reads half a file), every `intervalMs` while the
 * process works and once more when it stops, so the file ends with the final counts of the run.
 */
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { QuotelakeMetrics } from './quotelake-metrics.js';

export interface TextfileOptions {
  /** node_exporter reads only `*.prom` files of its --collector.textfile.directory. */
  readonly path: string;
  /** Between writes while running; 0 or absent: only the final write (and flush() calls). */
  readonly intervalMs?: number | undefined;
  /** A periodic write that failed (the final one throws instead). Must not throw. */
  readonly onError?: (error: unknown) => void;
  /** The first write that succeeded after periodic ones failed, with how many failed. Must not throw. */
  readonly onRecovered?: (failedWrites: number) => void;
  /**
   * false: the file's folder must exist, and a write into a folder removed meanwhile fails (ENOENT)
   * rather than making it again where the collector may no longer look. Default true.
   */
  readonly makeFolder?: boolean;
}

export interface MetricsTextfile {
  readonly path: string;
  /** Writes the current values now (after any write under way). */
  flush(): Promise<void>;
  /** Stops the periodic writes and writes the final values. */
  stop(): Promise<void>;
}

export function startMetricsTextfile(metrics: QuotelakeMetrics, options: TextfileOptions): MetricsTextfile {
  // Writes in a row, never two at once: a later write must not be overtaken by an earlier one.
  let chain: Promise<void> = Promise.resolve();
  // Periodic writes failed since the last one that succeeded: a success then is a recovery.
  let failedWrites = 0;
  const write = (): Promise<void> => {
    const next = chain.then(async () => {
      // Not fsynced: the file is a view of counters, rewritten soon; the rename keeps it whole.
      // No process metrics, even when an endpoint serves them: node_exporter reports the machine's own.
      await writeFileAtomic(options.path, await metrics.text({ process: false }), { durable: false, makeFolder: options.makeFolder ?? true });
      if (failedWrites > 0) options.onRecovered?.(failedWrites);
      failedWrites = 0;
    });
    chain = next.catch(() => undefined);
    return next;
  };
  const intervalMs = options.intervalMs ?? 0;
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          write().catch((error: unknown) => {
            failedWrites += 1;
            options.onError?.(error);
          });
        }, intervalMs)
      : undefined;
  // The timer alone must not keep a finished process alive.
  timer?.unref();
  let stopped = false;
  return {
    path: options.path,
    flush: write,
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      if (stopped) return chain;
      stopped = true;
      return write();
    },
  };
}
