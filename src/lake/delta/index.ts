/** The Delta Lake transaction log of a dataset's table, through the LakeStorage interface only. */
export type { AddAction, CommitInfoAction, DeltaAction, MetaDataAction, PartitionValues, ProtocolAction, RemoveAction, TxnAction } from './delta-actions.js';
export { commitDeltaVersion, ENGINE_INFO, type CommitOptions, type CommitResult, type DeltaChanges } from './commit-delta-version.js';
export { writeDeltaCheckpoint, DEFAULT_TOMBSTONE_RETENTION_MS } from './delta-checkpoint-write.js';
export { addAction, removeAction, partitionValuesOf, type DataFile } from './delta-file-actions.js';
export { checkpointKey, commitKey, encodeDeltaPath, decodeDeltaPath, fileKeyOf, lastCheckpointKey, logPrefix } from './delta-paths.js';
export { DELTA_PARTITION_COLUMNS, datasetSchemaString, deltaSchemaOf } from './delta-schema.js';
export { readDeltaSnapshot, type DeltaSnapshot } from './delta-snapshot.js';
export { deltaStatsOfSeries } from './delta-stats.js';
export { datasetMetaData, DELTA_PROTOCOL } from './delta-table-metadata.js';
export { watermarkAppId, watermarkTxn, watermarksOf } from './delta-txn.js';
export { vacuumDelta, type VacuumOptions, type VacuumResult } from './vacuum-delta.js';
export { schemaMismatch, tableDecimal, unsupportedWriterProtocol } from './delta-writable.js';
