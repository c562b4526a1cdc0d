/**
 * The actions of a classic checkpoint, read with hyparquet: each row holds one action in one of
 * the struct columns (the others null). Longs come back as BigInt and become numbers (sizes, times
 * and epoch-ms watermarks are far below 2^53); null fields are dropped, as absent JSON fields are.
 */
import { parquetReadObjects } from 'hyparquet';
import { DeltaLogError } from '../../core/errors.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import type { DeltaAction } from './delta-actions.js';
import { CHECKPOINT_COLUMNS } from './delta-checkpoint-schema.js';
import { checkpointKey } from './delta-paths.js';

function plain(value: unknown, keepNullValues = false): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Map) return plain(Object.fromEntries(value), true);
  if (Array.isArray(value)) return value.map((v) => plain(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if ((v === null || v === undefined) && !keepNullValues) continue;
      // string maps (partitionValues, options, configuration) keep their null values
      out[k] = plain(v, k === 'partitionValues' || k === 'options' || k === 'configuration');
    }
    return out;
  }
  return value;
}

export async function readCheckpointActions(storage: LakeStorage, tableKey: string, version: number): Promise<DeltaAction[]> {
  const key = checkpointKey(tableKey, version);
  const bytes = await storage.read(key);
  if (bytes === undefined) throw new DeltaLogError(`checkpoint ${version} is listed but cannot be read`, tableKey);
  let rows: Record<string, unknown>[];
  try {
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
  } catch (cause) {
    throw new DeltaLogError(`checkpoint ${version} is not a readable Parquet file`, tableKey, { cause });
  }
  const actions: DeltaAction[] = [];
  for (const row of rows) {
    for (const column of CHECKPOINT_COLUMNS) {
      const value = row[column];
      if (value === null || value === undefined) continue;
      actions.push({ [column]: plain(value) } as DeltaAction);
    }
  }
  return actions;
}
