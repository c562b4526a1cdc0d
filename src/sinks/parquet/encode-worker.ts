/** Worker thread entry of the parquet sink's encode pool (parquet-pool.ts). */
import { workerData } from 'node:worker_threads';
import { datasetSchema } from '../../core/schemas.js';
import { serveEncodeJobs } from '../shared/encode-service.js';
import { parquetEncoder } from './parquet-encoder.js';
import type { ParquetWorkerData } from './parquet-pool.js';

const { dataset, decimal, rowGroupRows } = workerData as ParquetWorkerData;
serveEncodeJobs(parquetEncoder({ rowGroupRows }), datasetSchema(dataset, decimal));
