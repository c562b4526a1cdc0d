/**
 * Worker thread entry of the parquet sink's encode pool (parquet-pool.ts). One pool serves every
 * parquet sink of the process, so each job names its dataset, decimal type and row-group size;
 * encoders and schemas are built once per combination.
 */
// First: this thread's start-up, before the codec below compiles its WebAssembly.
import './encode-worker-start.js';
import type { Schema } from 'apache-arrow';
import { datasetSchema } from '../../core/schemas.js';
import { serveEncodeJobs } from '../encode/encode-service.js';
import type { TableEncoder } from '../encode/table-encoder.js';
import { parquetEncoder } from './parquet-encoder.js';
import type { ParquetEncoderKey } from './parquet-pool.js';

const built = new Map<string, { encoder: TableEncoder; schema: Schema }>();

serveEncodeJobs((key) => {
  const { dataset, decimal, rowGroupRows, timestampUnit } = key as ParquetEncoderKey;
  const id = JSON.stringify([dataset, decimal.precision, decimal.scale, rowGroupRows, timestampUnit]);
  let entry = built.get(id);
  if (entry === undefined) {
    entry = { encoder: parquetEncoder({ rowGroupRows, ...(timestampUnit !== undefined ? { timestampUnit } : {}) }), schema: datasetSchema(dataset, decimal) };
    built.set(id, entry);
  }
  return entry;
});
