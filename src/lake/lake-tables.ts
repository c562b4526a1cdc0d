/**
 * The tables of a lake a whole-lake command works on (`compact`, `repair`): every dataset with a
 * manifest, or the one `--dataset` names (and only those of one format, where a pipeline's sink
 * names it), each with whether it keeps a Delta log and the codec of its files. A dataset name that is none is refused with the message that lists them.
 */
import type { TableFormat } from './commit/manifest.js';
import { manifestedTables, readManifest } from './commit/manifest.js';
import { datasetSpec, isDataset } from './datasets/index.js';
import { hasDeltaLog } from './delta/table-kind.js';
import type { TableEncoder } from './encode/table-encoder.js';
import type { LakeStorage } from './storage/lake-storage.js';
import { tableCodec } from './table-codec.js';

export interface LakeTable {
  readonly dataset: string;
  readonly format: TableFormat;
  /** A Parquet table with a `_delta_log/`, or whose manifest records one (its files hold µs timestamps). */
  readonly delta: boolean;
  readonly encoder: TableEncoder;
}

/** One table at a time, each looked at only when the one before is done with (a stopped compact reads no further). */
export async function* lakeTables(storage: LakeStorage, dataset?: string, format?: TableFormat): AsyncGenerator<LakeTable> {
  if (dataset !== undefined && !isDataset(dataset)) datasetSpec(dataset); // throws the message that lists the datasets
  for (const table of await manifestedTables(storage)) {
    if ((dataset !== undefined && table.dataset !== dataset) || (format !== undefined && table.format !== format)) continue;
    // A table whose log was lost is still one (its manifest records it): its files hold µs instants.
    const delta = table.format === 'parquet' && ((await hasDeltaLog(storage, table.dataset)) || (await readManifest(storage, table.dataset, table.format))?.table === 'delta');
    const encoder = await tableCodec(table.format, delta ? 'us' : 'ms');
    if (encoder !== undefined) yield { ...table, delta, encoder };
  }
}
