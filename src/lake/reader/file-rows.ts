/**
 * Rows of one data file with column projection: only the named columns are read (Parquet: only
 * their column chunks, through hyparquet; Arrow IPC: the record batches, keeping the named
 * children). A hive key asked for and absent from the file (layout 2 writes `interval` and
 * `exchange` only in the path) is filled from the partition path. Timestamps come as epoch ms.
 * Decimal columns are refused: hyparquet turns them into doubles, and a decimal never passes
 * through a JS number (read them with readLakeRecords, which decodes whole files exactly).
 */
import { DataType, type Vector } from 'apache-arrow';
import { parquetReadObjects, type Compressors, type FileMetaData } from 'hyparquet';
import { LakeReadError } from '../../core/errors.js';
import { openArrowFile } from './arrow-footer.js';
import type { LakeFile } from './lake-files.js';
import { MS_PARSERS, readParquetMetadata } from './parquet-footer.js';
import { withRangeFile, type RangeFile } from './range-file.js';

export type CellValue = string | number | boolean | null;
export type LakeRow = Record<string, CellValue>;

function refuseDecimal(file: LakeFile, column: string): never {
  throw new LakeReadError(`${file.dataset}/${file.path}: column ${column} is a decimal; project it with readLakeRecords (exact), not as a JS number`, file.absPath);
}

function withHive(file: LakeFile, rows: LakeRow[], missing: readonly string[]): LakeRow[] {
  if (missing.length === 0) return rows;
  for (const name of missing) {
    const value = file.hive[name];
    if (value === undefined) throw new LakeReadError(`${file.dataset}/${file.path}: no column ${name} in the file or its partition path`, file.absPath);
    for (const r of rows) r[name] = value;
  }
  return rows;
}

function cell(v: unknown): CellValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.getTime();
  return v as CellValue;
}

/** hyparquet reads snappy itself; our direct writer uses ZSTD, loaded (WebAssembly) only when a column read needs it. */
let compressors: Promise<Compressors> | undefined;
export function parquetCompressors(): Promise<Compressors> {
  compressors ??= import('../parquet/direct/zstd.js').then(({ zstdDecompress }) => ({ ZSTD: zstdDecompress }));
  return compressors;
}

export async function parquetRows(file: LakeFile, range: RangeFile, columns: readonly string[], metadata?: FileMetaData): Promise<LakeRow[]> {
  const meta = metadata ?? (await readParquetMetadata(range));
  const present = new Map(meta.schema.slice(1).map((e) => [e.name, e]));
  const inFile = columns.filter((c) => present.has(c));
  for (const c of inFile) {
    const e = present.get(c)!;
    if (e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL') refuseDecimal(file, c);
  }
  let rows: LakeRow[];
  if (inFile.length === 0) {
    rows = Array.from({ length: Number(meta.num_rows) }, () => ({}));
  } else {
    const objects = (await parquetReadObjects({ file: range, metadata: meta, columns: inFile, parsers: MS_PARSERS, compressors: await parquetCompressors() })) as Record<string, unknown>[];
    rows = objects.map((o) => {
      const r: LakeRow = {};
      for (const c of inFile) r[c] = cell(o[c]);
      return r;
    });
  }
  return withHive(file, rows, columns.filter((c) => !present.has(c)));
}

function arrowCell(vector: Vector, i: number): CellValue {
  return cell(vector.get(i));
}

function arrowRows(file: LakeFile, columns: readonly string[]): Promise<LakeRow[]> {
  return withRangeFile(file.storage, file.key, async (range) => {
    const reader = await openArrowFile(range);
    const fields = new Map(reader.schema.fields.map((f) => [f.name, f]));
    const inFile = columns.filter((c) => fields.has(c));
    for (const c of inFile) if (DataType.isDecimal(fields.get(c)!.type)) refuseDecimal(file, c);
    const rows: LakeRow[] = [];
    for (let b = 0; b < reader.numRecordBatches; b++) {
      const batch = await reader.readRecordBatch(b);
      if (!batch) continue;
      const vectors = inFile.map((c) => batch.getChild(c)!);
      for (let i = 0; i < batch.numRows; i++) {
        const r: LakeRow = {};
        for (let k = 0; k < inFile.length; k++) r[inFile[k]!] = arrowCell(vectors[k]!, i);
        rows.push(r);
      }
    }
    return withHive(file, rows, columns.filter((c) => !fields.has(c)));
  });
}

/** The named columns of one file, row by row. */
export async function readFileRows(file: LakeFile, columns: readonly string[]): Promise<LakeRow[]> {
  if (file.format === 'parquet') return withRangeFile(file.storage, file.key, (range) => parquetRows(file, range, columns));
  return arrowRows(file, columns);
}
