/**
 * Rows of a dataset's live files. `readLakeRows` reads only the named columns (coverage needs code,
 * interval and ts of 6 M bars, not their decimals); `readLakeRecords` decodes whole files into the
 * dataset's typed records with exact decimals, for read-back checks and tests.
 */
import { tableCodec } from '../table-codec.js';
import type { Dataset, DatasetRows } from '../../core/records.js';
import { datasetSpec } from '../datasets/index.js';
import type { TableEncoder } from '../encode/table-encoder.js';
import { LakeObjectMissingError } from '../../core/errors.js';
import type { LakeLocation } from '../storage/storage-of.js';
import { boundedMap } from './bounded-map.js';
import { readFileRows, type LakeRow } from './file-rows.js';
import { lakeDataset, type LakeFile, type LakeFormat } from './lake-files.js';
import { DEFAULT_CONCURRENCY, type ReadProgress } from './read-lake.js';

export interface RowReadOptions {
  readonly concurrency?: number;
  readonly onProgress?: ReadProgress;
  /** Read only the files this keeps (e.g. by hive keys or the manifest's key ranges). */
  readonly files?: (file: LakeFile) => boolean;
}

/** The named columns of every live file, in manifest order; [] when the dataset has no manifest. */
export async function readLakeRows(where: LakeLocation, dataset: string, format: LakeFormat, columns: readonly string[], options: RowReadOptions = {}): Promise<LakeRow[]> {
  const ds = await lakeDataset(where, dataset, format);
  if (!ds) return [];
  const files = options.files ? ds.files.filter(options.files) : ds.files;
  const parts = await boundedMap(files, options.concurrency ?? DEFAULT_CONCURRENCY, (f) => readFileRows(f, columns), (done) => options.onProgress?.(done, files.length));
  return parts.flat();
}

async function wholeFile(file: LakeFile): Promise<Uint8Array> {
  const bytes = await file.storage.read(file.key);
  if (bytes === undefined) throw new LakeObjectMissingError(file.storage.root, file.key);
  return bytes;
}

/** The codec of a format the reader lists (both are the lake's own, so one always exists). */
async function decoderOf(format: LakeFormat): Promise<TableEncoder> {
  return (await tableCodec(format))!;
}

/** Every live row as the dataset's typed record (whole files decoded: exact decimals). */
export async function readLakeRecords<D extends Dataset>(where: LakeLocation, dataset: D, format: LakeFormat = 'parquet', options: RowReadOptions = {}): Promise<DatasetRows[D][]> {
  const ds = await lakeDataset(where, dataset, format);
  if (!ds) return [];
  const spec = datasetSpec(dataset);
  const decoder = await decoderOf(format);
  // Fewer at a time than footers: each holds a whole decoded file.
  const parts = await boundedMap(ds.files, Math.min(4, options.concurrency ?? 4), async (f) => spec.fromTable(decoder.decode(await wholeFile(f)), f.partition), (done) =>
    options.onProgress?.(done, ds.files.length),
  );
  return parts.flat() as DatasetRows[D][];
}
