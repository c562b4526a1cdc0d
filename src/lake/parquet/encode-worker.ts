/**
 * Worker thread entry of the parquet sink's encode pool (parquet-pool.ts). One pool serves every
 * parquet sink of the process, so each job names its dataset, decimal type and row-group size;
 * encoders and schemas are built once per combination.
 *
 * The thread is ours, so it opts into optimised WebAssembly at its start, explicitly and before the
 * codec (whose zstd compiles on import) is loaded: hence the dynamic imports below.
 */
import type { Schema } from 'apache-arrow';
import type { TableEncoder } from '../encode/table-encoder.js';
import { optimizeWasmCompilation } from './optimized-wasm.js';
import type { ParquetEncoderKey } from './parquet-pool.js';

optimizeWasmCompilation();

const { datasetSchema } = await import('../../core/schemas.js');
const { serveEncodeJobs } = await import('../encode/encode-service.js');
const { parquetEncoder } = await import('./parquet-encoder.js');

const built = new Map<string, { encoder: TableEncoder; schema: Schema }>();

serveEncodeJobs((key) => {
  const { dataset, decimal, rowGroupRows } = key as ParquetEncoderKey;
  const id = JSON.stringify([dataset, decimal.precision, decimal.scale, rowGroupRows]);
  let entry = built.get(id);
  if (entry === undefined) {
    entry = { encoder: parquetEncoder({ rowGroupRows }), schema: datasetSchema(dataset, decimal) };
    built.set(id, entry);
  }
  return entry;
});
