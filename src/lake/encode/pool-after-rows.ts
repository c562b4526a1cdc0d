/**
 * A writer that encodes on the calling thread until `rows` rows have been handed to it, then sends
 * every later file to the encode threads. A worker thread costs a fixed price at its start (its own
 * V8 isolate, its modules, the codec compiled again: about 0.1 CPU-s) that a small run, a minute's
 * update or a day of bars, never earns back; a long backfill earns it back within seconds, and from
 * then on the calling thread goes on parsing while the workers encode.
 */
import type { StagedFileWriter } from './staged-file-writer.js';

export function poolAfterRows(inThread: StagedFileWriter, pool: StagedFileWriter, rows: number): StagedFileWriter {
  let handed = 0;
  let pooled = rows <= 0;
  const current = () => (pooled ? pool : inThread);
  return {
    warm: () => {
      if (pooled) pool.warm();
    },
    ready: () => current().ready(),
    write(job) {
      handed += job.rows;
      if (!pooled && handed > rows) {
        // This file still goes to the calling thread (ready() was asked of it); the next go to the pool.
        pooled = true;
        pool.warm();
        return inThread.write(job);
      }
      return current().write(job);
    },
    async close() {
      await inThread.close();
      await pool.close();
    },
  };
}
