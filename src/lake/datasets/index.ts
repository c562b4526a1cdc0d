import { SinkError } from '../../core/errors.js';
import { DATASETS, type Dataset, type DatasetRows } from '../../core/records.js';
import type { DatasetSpec } from './dataset-spec.js';
import { depthSpec } from './depth.js';
import { haltSpec } from './halt.js';
import { klineSpec } from './kline.js';
import { tradeSpec } from './trade.js';

const SPECS: { [D in Dataset]: DatasetSpec<DatasetRows[D]> } = { kline: klineSpec, trade: tradeSpec, depth: depthSpec, halt: haltSpec };

export function isDataset(name: string): name is Dataset {
  return (DATASETS as readonly string[]).includes(name);
}

export function datasetSpec(name: string): DatasetSpec<DatasetRows[Dataset]> {
  if (!isDataset(name)) throw new SinkError(`unknown dataset ${JSON.stringify(name)} (expected ${DATASETS.join(', ')})`);
  return SPECS[name] as DatasetSpec<DatasetRows[Dataset]>;
}
