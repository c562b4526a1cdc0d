/**
 * The parquet sinks' encode workers: one pool per process (per worker count), leased by each sink.
 * Sharing keeps parquet-wasm compiled and warm from one pipeline to the next (a fresh worker
 * compiles its WebAssembly again and runs it unoptimised at first); a pool nobody leases stops
 * after a few idle seconds, and idle workers never keep the process alive.
 */
import type { DecimalType } from '../../core/decimal.js';
import type { Dataset } from '../../core/records.js';
import { compiledUrl } from '../encode/compiled-url.js';
import { EncodePool } from '../encode/encode-pool.js';
import type { StagedFileWriter } from '../encode/staged-file-writer.js';
import type { TimestampUnit } from './timestamp-units.js';

/** Which encoder a file needs: enough for a worker to build the dataset's schema and the encoder (sent with every file). */
export interface ParquetEncoderKey {
  readonly dataset: Dataset;
  readonly decimal: DecimalType;
  readonly rowGroupRows: number;
  /** 'us' for a Delta table's files (timestamp-units.ts); default 'ms'. */
  readonly timestampUnit?: TimestampUnit;
}

const IDLE_STOP_MS = 5000;

interface Shared {
  readonly pool: EncodePool;
  leases: number;
  idle?: NodeJS.Timeout;
}

const pools = new Map<number, Shared>();

function lease(workers: number): Shared {
  let shared = pools.get(workers);
  if (shared === undefined) {
    shared = { pool: new EncodePool({ url: compiledUrl(new URL('./encode-worker.js', import.meta.url)), workers }), leases: 0 };
    pools.set(workers, shared);
  }
  clearTimeout(shared.idle);
  shared.leases++;
  return shared;
}

function release(workers: number, shared: Shared): void {
  if (--shared.leases > 0) return;
  shared.idle = setTimeout(() => {
    if (shared.leases > 0) return;
    if (pools.get(workers) === shared) pools.delete(workers);
    void shared.pool.close();
  }, IDLE_STOP_MS);
  shared.idle.unref();
}

/** A sink's writer on the process's pool of `workers` encode threads; close() ends the lease. */
export function parquetPool(workers: number, data: ParquetEncoderKey): StagedFileWriter {
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer, got ${workers}`);
  const key: ParquetEncoderKey = { dataset: data.dataset, decimal: { precision: data.decimal.precision, scale: data.decimal.scale }, rowGroupRows: data.rowGroupRows, timestampUnit: data.timestampUnit ?? 'ms' };
  let shared: Shared | undefined;
  const held = () => (shared ??= lease(workers));
  return {
    warm: () => held().pool.warm(),
    ready: () => held().pool.ready(),
    write: (job) => held().pool.write(job, key),
    async close() {
      if (shared === undefined) return;
      const s = shared;
      shared = undefined;
      release(workers, s);
    },
  };
}
