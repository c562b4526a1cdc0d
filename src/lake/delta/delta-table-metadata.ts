/** The `protocol` and `metaData` of a dataset's table, written by its version 0. */
import { randomUUID } from 'node:crypto';
import type { DecimalType } from '../../core/decimal.js';
import type { Dataset } from '../../core/records.js';
import type { MetaDataAction, ProtocolAction } from './delta-actions.js';
import { DELTA_PARTITION_COLUMNS, datasetSchemaString } from './delta-schema.js';

export const DELTA_PROTOCOL: ProtocolAction = Object.freeze({ minReaderVersion: 1, minWriterVersion: 2 });

export interface MetaDataOptions {
  decimal?: DecimalType;
  /** Injected by tests; a random UUID otherwise. */
  id?: string;
  createdTime: number;
}

export function datasetMetaData(dataset: Dataset, options: MetaDataOptions): MetaDataAction {
  return {
    id: options.id ?? randomUUID(),
    format: { provider: 'parquet', options: {} },
    schemaString: datasetSchemaString(dataset, options.decimal),
    partitionColumns: DELTA_PARTITION_COLUMNS[dataset].map((c) => c.name),
    configuration: {},
    createdTime: options.createdTime,
  };
}
