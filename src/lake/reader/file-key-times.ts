/**
 * The series key and time columns of one data file as arrays, never row objects: what a gap audit
 * needs of millions of bars. Only those column chunks are read (Parquet files quotelake wrote by
 * direct-key-times.ts, any other through hyparquet's column projection; Arrow IPC keeps the two
 * children of each record batch). The key column is skipped
 * when the caller already knows the file holds one series (the manifest's key ranges say so).
 * Times come as epoch ms in a Float64Array (exact: ms instants fit a double's 53 bits).
 */
import { parquetRead } from 'hyparquet';
import { LakeReadError } from '../../core/errors.js';
import { directKeyTimes } from './direct-key-times.js';
import { openArrowFile } from './arrow-footer.js';
import { parquetCompressors } from './file-rows.js';
import type { LakeFile } from './lake-files.js';
import { MS_PARSERS, readParquetMetadata } from './parquet-footer.js';
import { withRangeFile } from './range-file.js';

export interface KeyTimes {
  /** The key of each row; null when not asked for. */
  readonly keys: readonly string[] | null;
  /** The time of each row (epoch ms); NaN where the file holds a null. */
  readonly times: Float64Array;
}

function missing(file: LakeFile, column: string): never {
  throw new LakeReadError(`${file.dataset}/${file.path}: no column ${column}`, file.absPath);
}

function parquetKeyTimes(file: LakeFile, key: string | null, time: string): Promise<KeyTimes> {
  return withRangeFile(file.storage, file.key, async (range) => {
    const metadata = await readParquetMetadata(range);
    const names = new Set(metadata.schema.slice(1).map((e) => e.name));
    if (!names.has(time)) missing(file, time);
    if (key !== null && !names.has(key)) missing(file, key);
    const direct = await directKeyTimes(range, metadata, key, time);
    if (direct !== undefined) return direct;
    const rows = Number(metadata.num_rows);
    const times = new Float64Array(rows);
    const keys: string[] | null = key === null ? null : new Array<string>(rows);
    await parquetRead({
      file: range,
      metadata,
      columns: key === null ? [time] : [key, time],
      parsers: MS_PARSERS,
      compressors: await parquetCompressors(),
      // Column chunks land straight in the arrays: no row is ever assembled.
      onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
        if (columnName === time) {
          for (let i = rowStart; i < rowEnd; i++) {
            const v = columnData[i - rowStart] as number | bigint | null | undefined;
            times[i] = v === null || v === undefined ? Number.NaN : Number(v);
          }
        } else if (keys !== null) {
          for (let i = rowStart; i < rowEnd; i++) keys[i] = String(columnData[i - rowStart]);
        }
      },
    });
    return { keys, times };
  });
}

function arrowKeyTimes(file: LakeFile, key: string | null, time: string): Promise<KeyTimes> {
  return withRangeFile(file.storage, file.key, async (range) => {
    const reader = await openArrowFile(range);
    const fields = new Set(reader.schema.fields.map((f) => f.name));
    if (!fields.has(time)) missing(file, time);
    if (key !== null && !fields.has(key)) missing(file, key);
    const times: number[] = [];
    const keys: string[] | null = key === null ? null : [];
    for (let b = 0; b < reader.numRecordBatches; b++) {
      const batch = await reader.readRecordBatch(b);
      if (!batch) continue;
      const t = batch.getChild(time)!;
      const k = key === null ? null : batch.getChild(key)!;
      for (let i = 0; i < batch.numRows; i++) {
        const v = t.get(i) as number | bigint | null;
        times.push(v === null ? Number.NaN : Number(v));
        if (keys !== null) keys.push(String(k!.get(i)));
      }
    }
    return { keys, times: Float64Array.from(times) };
  });
}

/** `time` (and `key`, unless null) of every row of one file, in file order. */
export function readKeyTimes(file: LakeFile, key: string | null, time: string): Promise<KeyTimes> {
  return file.format === 'parquet' ? parquetKeyTimes(file, key, time) : arrowKeyTimes(file, key, time);
}
