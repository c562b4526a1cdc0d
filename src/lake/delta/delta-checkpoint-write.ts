/**
 * Writes `<version>.checkpoint.parquet` (the replayed state: protocol, metaData, txns, live adds,
 * unexpired tombstones; never commitInfo) and then `_last_checkpoint` `{version, size, ...}`.
 * Both are published whole; two writers of the same checkpoint write the same content, and the
 * protocol lets the last one win. The Parquet is written by parquet-wasm from an Arrow table with
 * struct and map columns (the same writer as the data files; Snappy, which every engine reads).
 */
import { makeBuilder, RecordBatch, Struct, Table, tableToIPC } from 'apache-arrow';
import type { LakeStorage } from '../storage/lake-storage.js';
import { parquetWasm } from '../parquet/parquet-wasm.js';
import type { PartitionValues } from './delta-actions.js';
import { checkpointSchema } from './delta-checkpoint-schema.js';
import { checkpointKey, lastCheckpointKey } from './delta-paths.js';
import type { DeltaSnapshot } from './delta-snapshot.js';

/** Spark's default `delta.deletedFileRetentionDuration`: tombstones younger than this stay in checkpoints. */
export const DEFAULT_TOMBSTONE_RETENTION_MS = 7 * 86_400_000;

const mapOf = (values: PartitionValues | Record<string, string>) => new Map(Object.entries(values));
const long = (n: number | undefined) => (n === undefined ? null : BigInt(n));

function rowsOf(snapshot: DeltaSnapshot, now: number, retentionMs: number): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const p = snapshot.protocol;
  rows.push({ protocol: { minReaderVersion: p.minReaderVersion, minWriterVersion: p.minWriterVersion } });
  const m = snapshot.metaData;
  rows.push({
    metaData: {
      id: m.id,
      name: null,
      description: null,
      format: { provider: m.format.provider, options: mapOf(m.format.options) },
      schemaString: m.schemaString,
      partitionColumns: m.partitionColumns,
      configuration: mapOf(m.configuration),
      createdTime: long(m.createdTime),
    },
  });
  for (const t of [...snapshot.txns.values()].sort((a, b) => (a.appId < b.appId ? -1 : 1))) {
    rows.push({ txn: { appId: t.appId, version: BigInt(t.version), lastUpdated: long(t.lastUpdated) } });
  }
  for (const a of [...snapshot.files.values()].sort((x, y) => (x.path < y.path ? -1 : 1))) {
    rows.push({
      add: {
        path: a.path,
        partitionValues: mapOf(a.partitionValues),
        size: BigInt(a.size),
        modificationTime: BigInt(a.modificationTime),
        dataChange: false, // a checkpoint restates files; it changes no data
        stats: a.stats ?? null,
      },
    });
  }
  for (const r of [...snapshot.tombstones.values()].sort((x, y) => (x.path < y.path ? -1 : 1))) {
    if (r.deletionTimestamp + retentionMs <= now) continue; // expired: vacuum may already have deleted it
    rows.push({
      remove: {
        path: r.path,
        deletionTimestamp: BigInt(r.deletionTimestamp),
        dataChange: r.dataChange,
        extendedFileMetadata: r.extendedFileMetadata ?? null,
        partitionValues: r.partitionValues === undefined ? null : mapOf(r.partitionValues),
        size: long(r.size),
      },
    });
  }
  return rows;
}

export interface CheckpointWritten {
  version: number;
  /** Actions (rows) in the checkpoint. */
  size: number;
  sizeInBytes: number;
  numOfAddFiles: number;
}

export async function writeDeltaCheckpoint(
  storage: LakeStorage,
  snapshot: DeltaSnapshot,
  options: { now: number; tombstoneRetentionMs?: number },
): Promise<CheckpointWritten> {
  const schema = checkpointSchema();
  const rows = rowsOf(snapshot, options.now, options.tombstoneRetentionMs ?? DEFAULT_TOMBSTONE_RETENTION_MS);
  const builder = makeBuilder({ type: new Struct(schema.fields), nullValues: [null, undefined] });
  for (const row of rows) builder.append(row as never); // plain objects: the builder reads fields by name
  const table = new Table([new RecordBatch(schema, builder.finish().flush())]);
  const { Compression, Table: WasmTable, writeParquet, WriterPropertiesBuilder } = parquetWasm();
  const props = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setCreatedBy('quotelake').build();
  const bytes = writeParquet(WasmTable.fromIPCStream(tableToIPC(table, 'stream')), props);
  await storage.publish(checkpointKey(snapshot.tableKey, snapshot.version), bytes);
  const written: CheckpointWritten = {
    version: snapshot.version,
    size: rows.length,
    sizeInBytes: bytes.byteLength,
    numOfAddFiles: snapshot.files.size,
  };
  await storage.publish(lastCheckpointKey(snapshot.tableKey), JSON.stringify(written));
  return written;
}
