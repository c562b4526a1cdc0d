/**
 * The Parquet footer of a file, read by range (hyparquet's parquetMetadataAsync asks for the last
 * 512 KiB at most, usually a few KiB): row count, key-value metadata, schema and column statistics
 * folded over the row groups. No page is read.
 */
import { parquetMetadataAsync, type FileMetaData, type SchemaElement } from 'hyparquet';
import type { ColumnStats, FileFooter, FooterColumn, StatValue } from './file-footer.js';
import { assertParquetSize } from '../parquet/parquet-too-short.js';
import type { RangeFile } from './range-file.js';

/** Timestamps as epoch ms numbers (hyparquet's default is a Date). */
export const MS_PARSERS = {
  timestampFromMilliseconds: (ms: bigint) => Number(ms),
  timestampFromMicroseconds: (us: bigint) => Number(us / 1000n),
  timestampFromNanoseconds: (ns: bigint) => Number(ns / 1_000_000n),
};

/** Our footers (schema, ARROW:schema, chunk statistics) are 2-5 KiB: one read; a larger one costs a second read. */
const INITIAL_FETCH = 8 * 1024;

export async function readParquetMetadata(file: RangeFile): Promise<FileMetaData> {
  assertParquetSize(file.byteLength);
  return parquetMetadataAsync(file, { parsers: MS_PARSERS, initialFetchSize: INITIAL_FETCH, geoparquet: false });
}

function typeName(e: SchemaElement): string {
  const lt = e.logical_type;
  if (lt?.type === 'DECIMAL' || e.converted_type === 'DECIMAL') return `DECIMAL(${e.precision ?? '?'},${e.scale ?? 0})`;
  if (lt?.type === 'TIMESTAMP') return `TIMESTAMP(${lt.unit})`;
  if (e.converted_type === 'TIMESTAMP_MILLIS') return 'TIMESTAMP(MILLIS)';
  if (lt?.type === 'STRING' || e.converted_type === 'UTF8') return 'STRING';
  if (lt) return lt.type;
  return e.type ?? 'GROUP';
}

function statValue(v: unknown): StatValue | undefined {
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.getTime();
  return undefined;
}

function less(a: StatValue, b: StatValue): boolean {
  return a < b;
}

export function footerOfMetadata(meta: FileMetaData, bytes: number): FileFooter {
  const metadata: Record<string, string> = {};
  for (const kv of meta.key_value_metadata ?? []) if (kv.value !== undefined) metadata[kv.key] = kv.value;
  // Leaves of a flat schema: every element after the root (our files have no nested columns
  // except depth's level lists, whose leaf paths are joined with dots).
  const leaves = new Map<string, SchemaElement>();
  const columns: FooterColumn[] = [];
  for (const e of meta.schema.slice(1)) {
    if (e.num_children === undefined) leaves.set(e.name, e);
    columns.push({ name: e.name, type: typeName(e) });
  }
  const stats = new Map<string, { min?: StatValue; max?: StatValue; nullCount?: number; decimal: boolean }>();
  for (const group of meta.row_groups) {
    for (const chunk of group.columns) {
      const md = chunk.meta_data;
      if (!md) continue;
      const name = md.path_in_schema.join('.');
      const leaf = leaves.get(md.path_in_schema.at(-1)!);
      const decimal = leaf !== undefined && typeName(leaf).startsWith('DECIMAL');
      const s = stats.get(name) ?? { decimal };
      stats.set(name, s);
      const st = md.statistics;
      if (!st) continue;
      if (st.null_count !== undefined) s.nullCount = (s.nullCount ?? 0) + Number(st.null_count);
      if (decimal) continue;
      // Only the typed min_value/max_value: the legacy min/max may use a signed byte order for text.
      const min = statValue(st.min_value);
      const max = statValue(st.max_value);
      if (min !== undefined && (s.min === undefined || less(min, s.min))) s.min = min;
      if (max !== undefined && (s.max === undefined || less(s.max, max))) s.max = max;
    }
  }
  const statistics: Record<string, ColumnStats> = {};
  for (const [name, s] of stats) {
    statistics[name] = {
      ...(s.min !== undefined ? { min: s.min } : {}),
      ...(s.max !== undefined ? { max: s.max } : {}),
      ...(s.nullCount !== undefined ? { nullCount: s.nullCount } : {}),
    };
  }
  return { rows: Number(meta.num_rows), bytes, metadata, columns, statistics };
}

export async function readParquetFooter(file: RangeFile): Promise<FileFooter> {
  return footerOfMetadata(await readParquetMetadata(file), file.byteLength);
}
