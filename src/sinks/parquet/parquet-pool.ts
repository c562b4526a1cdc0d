/** The parquet sink's encode pool: worker threads running encode-worker.ts. */
import type { DecimalType } from '../../core/decimal.js';
import type { Dataset } from '../../core/records.js';
import { compiledUrl } from '../shared/compiled-url.js';
import { EncodePool } from '../shared/encode-pool.js';

/** Enough for a worker to rebuild the dataset's schema and the encoder. */
export interface ParquetWorkerData {
  readonly dataset: Dataset;
  readonly decimal: DecimalType;
  readonly rowGroupRows: number;
}

export function parquetPool(workers: number, data: ParquetWorkerData): EncodePool {
  return new EncodePool({ url: compiledUrl(new URL('./encode-worker.js', import.meta.url)), workers, workerData: { ...data, decimal: { ...data.decimal } } });
}
