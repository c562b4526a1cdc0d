/**
 * readKeyTimes for the Parquet files quotelake writes (flat REQUIRED columns, PLAIN pages, ZSTD or
 * no compression): only the two column chunks are fetched, the key column's strings are not made
 * one per row (a row of the same series as the row before gets that row's string), and the times
 * are read as the integers they are, with no BigInt per row. A post-run coverage audit reads back
 * every row a backfill wrote, and through hyparquet that was a quarter of the run's allocations.
 * Undefined for any other file (a dictionary page, nulls, another codec or type): hyparquet reads
 * it as before.
 */
import type { ColumnMetaData, FileMetaData, SchemaElement } from 'hyparquet';
import { plainChunk, plainPages, type Page } from '../parquet/direct/direct-parquet-reader.js';
import type { KeyTimes } from './file-key-times.js';
import type { RangeFile } from './range-file.js';

/** Milliseconds per stored unit, as divisors of the stored integer (MS_PARSERS rounds the same way: toward zero). */
const PER_MS = { MILLIS: 1, MICROS: 1000, NANOS: 1_000_000 } as const;

function timeUnit(e: SchemaElement): keyof typeof PER_MS | undefined {
  if (e.type !== 'INT64') return undefined;
  if (e.logical_type?.type === 'TIMESTAMP') return e.logical_type.unit;
  if (e.converted_type === 'TIMESTAMP_MILLIS') return 'MILLIS';
  if (e.converted_type === 'TIMESTAMP_MICROS') return 'MICROS';
  return undefined;
}

async function chunkPages(range: RangeFile, meta: ColumnMetaData | undefined): Promise<Page[] | undefined> {
  // Checked before any byte is fetched.
  if (meta === undefined || !plainChunk(meta)) return undefined;
  const start = Number(meta.data_page_offset);
  const bytes = new Uint8Array(await range.slice(start, start + Number(meta.total_compressed_size)));
  return plainPages(bytes, meta, start);
}

/** INT64 values (little-endian) as numbers: exact below 2^53 ms, far past any bar's time. */
function readTimes(pages: readonly Page[], perMs: number, out: Float64Array, from: number, rows: number): void {
  let i = from;
  for (const { bytes, values } of pages) {
    if (bytes.length < 8 * values || i + values > from + rows) throw new RangeError('parquet: time page does not match its row count');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let k = 0; k < values; k++) {
      const v = view.getInt32(8 * k + 4, true) * 4294967296 + view.getUint32(8 * k, true);
      // Toward zero, exactly: v % perMs is exact in doubles.
      out[i++] = perMs === 1 ? v : (v - (v % perMs)) / perMs;
    }
  }
  if (i !== from + rows) throw new RangeError(`parquet: ${i - from} times, ${rows} expected`);
}

const utf8 = new TextDecoder();

/** BYTE_ARRAY values (4-byte length, then the bytes); a value equal to the one before reuses its string. */
function readKeys(pages: readonly Page[], out: string[], from: number, rows: number): void {
  let i = from;
  let last = '';
  // Where the previous value's bytes are (compared in place: no view object a row).
  let lastPage: Uint8Array | undefined;
  let lastAt = 0;
  let lastLength = -1;
  for (const { bytes } of pages) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let k = 0;
    while (k < bytes.length) {
      if (i >= from + rows) throw new RangeError('parquet: more keys than rows');
      const n = view.getUint32(k, true);
      k += 4;
      if (k + n > bytes.length) throw new RangeError('parquet: key past its page');
      if (n !== lastLength || !sameBytes(bytes, k, lastPage!, lastAt, n)) {
        last = utf8.decode(bytes.subarray(k, k + n));
        lastLength = n;
      }
      lastPage = bytes;
      lastAt = k;
      out[i++] = last;
      k += n;
    }
  }
  if (i !== from + rows) throw new RangeError(`parquet: ${i - from} keys, ${rows} expected`);
}

function sameBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, n: number): boolean {
  for (let j = 0; j < n; j++) if (a[at + j] !== b[bt + j]) return false;
  return true;
}

export async function directKeyTimes(range: RangeFile, metadata: FileMetaData, key: string | null, time: string): Promise<KeyTimes | undefined> {
  const leaves = metadata.schema.slice(1);
  if (leaves.some((e) => e.num_children !== undefined)) return undefined;
  const t = leaves.findIndex((e) => e.name === time);
  const k = key === null ? -1 : leaves.findIndex((e) => e.name === key);
  const unit = t < 0 ? undefined : timeUnit(leaves[t]!);
  if (unit === undefined || leaves[t]!.repetition_type !== 'REQUIRED') return undefined;
  if (key !== null && (k < 0 || leaves[k]!.type !== 'BYTE_ARRAY' || leaves[k]!.repetition_type !== 'REQUIRED')) return undefined;
  const rows = Number(metadata.num_rows);
  const times = new Float64Array(rows);
  const keys = key === null ? null : new Array<string>(rows);
  let from = 0;
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    const timePages = await chunkPages(range, group.columns[t]?.meta_data);
    if (timePages === undefined) return undefined;
    readTimes(timePages, PER_MS[unit], times, from, groupRows);
    if (keys !== null) {
      const keyPages = await chunkPages(range, group.columns[k]?.meta_data);
      if (keyPages === undefined) return undefined;
      readKeys(keyPages, keys, from, groupRows);
    }
    from += groupRows;
  }
  if (from !== rows) throw new RangeError(`parquet: row groups hold ${from} rows, the footer says ${rows}`);
  return { keys, times };
}
