/**
 * `add` and `remove` actions for the data files of a dataset's table. Partition values come from
 * the file's hive folders (decoded, the hive NULL as null), restricted to and checked against the
 * table's partition columns, so the log and the path can never disagree.
 */
import { DeltaLogError } from '../../core/errors.js';
import { HIVE_NULL } from '../../core/hive-null.js';
import type { Dataset } from '../../core/records.js';
import { partitionKeys } from '../partition-path.js';
import type { SeriesStats } from '../series-stats.js';
import type { AddAction, PartitionValues, RemoveAction } from './delta-actions.js';
import { encodeDeltaPath } from './delta-paths.js';
import { DELTA_PARTITION_COLUMNS } from './delta-schema.js';
import { deltaStatsOfSeries, statsString } from './delta-stats.js';

/** Partition values of a file at `relativeKey` (relative to the table root). */
export function partitionValuesOf(dataset: Dataset, relativeKey: string): PartitionValues {
  const folder = relativeKey.split('/').slice(0, -1).join('/');
  const keys = partitionKeys(folder);
  const values: PartitionValues = {};
  for (const column of DELTA_PARTITION_COLUMNS[dataset]) {
    const value = keys[column.name];
    if (value === undefined) throw new DeltaLogError(`${relativeKey}: no ${column.name}= folder (a ${dataset} partition column)`, dataset);
    values[column.name] = value === HIVE_NULL ? null : value;
    if (values[column.name] === null && !column.nullable) throw new DeltaLogError(`${relativeKey}: ${column.name} cannot be NULL`, dataset);
  }
  return values;
}

export interface DataFile {
  /** Key relative to the table root, e.g. `date=2026-11-21/part-r1-00001.parquet`. */
  relativeKey: string;
  size: number;
  /** When the file was written, epoch ms. */
  modificationTime: number;
  /** Its `quotelake.series`; absent (a 0.1.0 file): no stats. */
  series?: ReadonlyMap<string, SeriesStats>;
}

/** The `add` of a file; `dataChange: false` for compaction output (same rows, rearranged). */
export function addAction(dataset: Dataset, file: DataFile, dataChange = true): AddAction {
  const add: AddAction = {
    path: encodeDeltaPath(file.relativeKey),
    partitionValues: partitionValuesOf(dataset, file.relativeKey),
    size: file.size,
    modificationTime: file.modificationTime,
    dataChange,
  };
  if (file.series !== undefined) add.stats = statsString(deltaStatsOfSeries(dataset, file.series));
  return add;
}

/** The `remove` of a live file, with its partition values and size (extended file metadata). */
export function removeAction(add: AddAction, deletionTimestamp: number, dataChange = true): RemoveAction {
  return {
    path: add.path,
    deletionTimestamp,
    dataChange,
    extendedFileMetadata: true,
    partitionValues: add.partitionValues,
    size: add.size,
  };
}
