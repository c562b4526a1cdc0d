/**
 * Reads the kline and halt datasets back from an output folder with the sinks' own decoders
 * (parquet-wasm + apache-arrow, or Arrow IPC): the files listed in the dataset's manifest, else
 * every data file under the dataset folder.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { HaltRow, KlineRow } from '../core/records.js';
import { arrowEncoder } from '../lake/arrow/arrow-encoder.js';
import { parquetEncoder } from '../lake/parquet/parquet-encoder.js';
import { haltSpec } from '../lake/datasets/halt.js';
import { klineSpec } from '../lake/datasets/kline.js';
import type { DatasetSpec } from '../lake/datasets/dataset-spec.js';
import { readManifest } from '../lake/commit/manifest.js';
import type { TableEncoder } from '../lake/encode/table-encoder.js';
import { coverageReport, type CoverageOptions, type CoverageReport } from './coverage-report.js';

export type OutputFormat = 'parquet' | 'arrow';

function encoderOf(format: OutputFormat): TableEncoder {
  return format === 'parquet' ? parquetEncoder({ rowGroupRows: 131_072 }) : arrowEncoder();
}

async function listFiles(dir: string, extension: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(extension) && !join(e.parentPath, e.name).includes('/.'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function readDataset<R>(outputDir: string, dataset: string, spec: DatasetSpec<R>, format: OutputFormat): Promise<R[]> {
  const encoder = encoderOf(format);
  const manifest = await readManifest(outputDir, dataset, format);
  const files = manifest
    ? manifest.files.map((f) => join(outputDir, dataset, f.path))
    : await listFiles(join(outputDir, dataset), encoder.extension);
  const rows: R[] = [];
  const root = join(outputDir, dataset);
  for (const file of files) {
    const table = encoder.decode(new Uint8Array(await readFile(file)));
    // The partition (hive keys such as interval, exchange) is the file's folder below the dataset's.
    const partition = relative(root, dirname(file)).split(sep).join('/');
    for (const r of spec.fromTable(table, partition)) rows.push(r);
  }
  return rows;
}

export function readKlineRows(outputDir: string, format: OutputFormat = 'parquet'): Promise<KlineRow[]> {
  return readDataset(outputDir, 'kline', klineSpec, format);
}

export function readHaltRows(outputDir: string, format: OutputFormat = 'parquet'): Promise<HaltRow[]> {
  return readDataset(outputDir, 'halt', haltSpec, format);
}

/** The coverage report of an output folder: its kline dataset, matched against its halt dataset if there is one. */
export async function coverageOfOutput(
  outputDir: string,
  options: Omit<CoverageOptions, 'halts'> & { format?: OutputFormat } = {},
): Promise<CoverageReport> {
  const format = options.format ?? 'parquet';
  const [klines, halts] = await Promise.all([readKlineRows(outputDir, format), readHaltRows(outputDir, format)]);
  return coverageReport(klines, { ...options, ...(halts.length > 0 ? { halts } : {}) });
}
