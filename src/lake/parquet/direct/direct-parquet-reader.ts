/**
 * Parquet bytes → Arrow table, for files of the shape the direct writer makes (flat REQUIRED
 * columns of the types plain-columns.ts writes, PLAIN V1 data pages, ZSTD or no compression, the
 * Arrow schema in the footer): the pages are decompressed and their values copied straight into
 * Arrow buffers, one record batch per row group. Anything else (a dictionary page, another
 * encoding or codec, nullable or nested columns, a file without `ARROW:schema`) answers undefined,
 * and the caller reads the file with parquet-wasm as before.
 *
 * Why: a commit in the middle of a backfill compacts the day partitions that earlier commits left
 * in pieces, reading them back. Through parquet-wasm that compiled and grew its WebAssembly
 * memory on the run's main thread at the first such commit (about 60 MB of resident memory that
 * a short run never paid) and cost about a quarter of a long run's CPU.
 */
import { Bool, DataType, Decimal, Int8, makeData, RecordBatch, Schema, Struct, Table, tableFromIPC, Timestamp, Utf8, type Data, type Field } from 'apache-arrow';
import { parquetMetadata, type ColumnMetaData } from 'hyparquet';
import { ThriftReader, type ThriftStruct } from './thrift-compact-read.js';
import { zstdDecompress } from './zstd.js';

const DATA_PAGE = 0;
const PLAIN = 0;
const ARROW_SCHEMA = 'ARROW:schema';

/** The file's Arrow schema, from the IPC schema message the writer put in its footer. */
function arrowSchemaOf(base64: string): Schema {
  const message = Buffer.from(base64, 'base64');
  // A stream of that one message and the end-of-stream marker reads as an empty table.
  const stream = Buffer.concat([message, Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])]);
  return tableFromIPC(stream).schema;
}

/** How one column's PLAIN values become its Arrow buffers, or undefined if this reader cannot. */
interface ColumnDecoder {
  /** Decoded pages of one row group → the column's Data of `rows` rows. */
  finish(pages: readonly Page[], rows: number): Data;
}

/** One data page's PLAIN bytes and how many values they hold. */
export interface Page {
  readonly bytes: Uint8Array;
  readonly values: number;
}

function concat(pages: readonly Page[], bytes: number): Uint8Array {
  // A fresh buffer: typed views over it are aligned, and it belongs to this column alone.
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const { bytes: p } of pages) {
    out.set(p.subarray(0, Math.min(p.length, bytes - at)), at);
    at += p.length;
    if (at >= bytes) break;
  }
  if (at < bytes) throw new RangeError(`parquet: pages hold ${at} bytes, ${bytes} expected`);
  return out;
}

// Decoders are classes, not closures made per file: V8 keeps a function's optimized code only while
// a closure of it lives, so per-file closures were compiled again after every full collection.

class Utf8Decoder implements ColumnDecoder {
  constructor(private readonly type: Utf8) {}

  finish(pages: readonly Page[], rows: number): Data {
    const offsets = new Int32Array(rows + 1);
    let total = 0;
    for (const { bytes: p } of pages) total += p.length;
    const data = new Uint8Array(total - 4 * rows);
    let i = 0;
    let at = 0;
    for (const { bytes: p } of pages) {
      const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
      let k = 0;
      while (k < p.length) {
        if (i >= rows) throw new RangeError('parquet: more strings than rows');
        const n = view.getUint32(k, true);
        k += 4;
        if (k + n > p.length) throw new RangeError('parquet: string past its page');
        data.set(p.subarray(k, k + n), at);
        k += n;
        at += n;
        offsets[++i] = at;
      }
    }
    if (i !== rows) throw new RangeError(`parquet: ${i} strings, ${rows} expected`);
    return makeData({ type: this.type, length: rows, nullCount: 0, data: data.subarray(0, at), valueOffsets: offsets });
  }
}

class BoolDecoder implements ColumnDecoder {
  constructor(private readonly type: Bool) {}

  finish(pages: readonly Page[], rows: number): Data {
    const out = new Uint8Array((rows + 7) >> 3);
    let i = 0;
    for (const { bytes: p, values } of pages) {
      // A page that starts on a byte boundary is copied whole (the writer's pages hold a
      // multiple of 8 values but the last); one that does not is copied bit by bit.
      const count = Math.min(rows - i, values);
      if (p.length < (count + 7) >> 3) throw new RangeError('parquet: boolean page too short');
      if ((i & 7) === 0) {
        out.set(p.subarray(0, (count + 7) >> 3), i >> 3);
        i += count;
      } else {
        for (let j = 0; j < count; j++, i++) if ((p[j >> 3]! >> (j & 7)) & 1) out[i >> 3]! |= 1 << (i & 7);
      }
    }
    // Bits past the last row stay zero, as Arrow expects.
    if (rows & 7) out[out.length - 1]! &= (1 << (rows & 7)) - 1;
    return makeData({ type: this.type, length: rows, nullCount: 0, data: out });
  }
}

class Int8Decoder implements ColumnDecoder {
  constructor(private readonly type: Int8) {}

  finish(pages: readonly Page[], rows: number): Data {
    const raw = concat(pages, 4 * rows);
    const view = new DataView(raw.buffer);
    const out = new Int8Array(rows);
    for (let i = 0; i < rows; i++) out[i] = view.getInt32(4 * i, true);
    return makeData({ type: this.type, length: rows, nullCount: 0, data: out });
  }
}

class TimestampDecoder implements ColumnDecoder {
  constructor(private readonly type: Timestamp) {}

  finish(pages: readonly Page[], rows: number): Data {
    const raw = concat(pages, 8 * rows);
    return makeData({ type: this.type, length: rows, nullCount: 0, data: new BigInt64Array(raw.buffer, 0, rows) });
  }
}

/** Decimal128 words (4 little-endian uint32 a value) from INT32, INT64 or big-endian FIXED_LEN_BYTE_ARRAY values. */
class DecimalDecoder implements ColumnDecoder {
  /** `width`: bytes of one value; big-endian for FIXED_LEN_BYTE_ARRAY. */
  constructor(
    private readonly type: Decimal,
    private readonly width: number,
    private readonly bigEndian: boolean,
  ) {}

  finish(pages: readonly Page[], rows: number): Data {
    const words = decimalWords(concat(pages, this.width * rows), rows, this.width, this.bigEndian);
    return makeData({ type: this.type, length: rows, nullCount: 0, data: words });
  }
}

/**
 * The Decimal128 words of `rows` values of `width` bytes each. Apart from finish(), so that the
 * loop is the last thing here: code compiled in the middle of a loop's first run (OSR) has no type
 * feedback for what follows it, and finish() gave up there call after call (12 deopts in a 414-day
 * backfill's compactions).
 */
function decimalWords(raw: Uint8Array, rows: number, width: number, bigEndian: boolean): Uint32Array {
  const words = new Uint32Array(4 * rows);
  const le = new Uint8Array(words.buffer);
  for (let i = 0; i < rows; i++) {
    const src = width * i;
    const dst = 16 * i;
    // Little-endian bytes of the value, then its sign carried up to 16 bytes.
    for (let b = 0; b < width; b++) le[dst + b] = raw[bigEndian ? src + width - 1 - b : src + b]!;
    const fill = le[dst + width - 1]! & 0x80 ? 0xff : 0;
    for (let b = width; b < 16; b++) le[dst + b] = fill;
  }
  return words;
}

function decimalDecoder(type: Decimal, physical: string, typeLength: number | undefined): ColumnDecoder | undefined {
  const width = physical === 'INT32' ? 4 : physical === 'INT64' ? 8 : physical === 'FIXED_LEN_BYTE_ARRAY' && typeLength !== undefined && typeLength >= 1 && typeLength <= 16 ? typeLength : 0;
  if (width === 0) return undefined;
  return new DecimalDecoder(type, width, physical === 'FIXED_LEN_BYTE_ARRAY');
}

function decoderOf(field: Field, meta: ColumnMetaData, typeLength: number | undefined): ColumnDecoder | undefined {
  if (field.nullable) return undefined;
  const type = field.type as DataType;
  const physical = meta.type;
  if (DataType.isUtf8(type) && physical === 'BYTE_ARRAY') return new Utf8Decoder(type);
  if (DataType.isBool(type) && physical === 'BOOLEAN') return new BoolDecoder(type);
  if (DataType.isInt(type) && type.bitWidth === 8 && type.isSigned && physical === 'INT32') return new Int8Decoder(type as Int8);
  if (DataType.isTimestamp(type) && physical === 'INT64') return new TimestampDecoder(type);
  if (DataType.isDecimal(type) && type.bitWidth === 128) return decimalDecoder(type, physical, typeLength);
  return undefined;
}

/** Whether a column chunk can be PLAIN pages this reader reads: no dictionary page, ZSTD or no compression. */
export function plainChunk(meta: ColumnMetaData): boolean {
  return meta.dictionary_page_offset === undefined && (meta.codec === 'ZSTD' || meta.codec === 'UNCOMPRESSED');
}

/**
 * The decompressed PLAIN pages of one column chunk, or undefined for pages this reader does not
 * read (see plainChunk; a page of another kind or encoding). `bytes` holds the file from byte
 * `base` on (the whole file, or just the chunk).
 */
export function plainPages(bytes: Uint8Array, meta: ColumnMetaData, base = 0): Page[] | undefined {
  if (!plainChunk(meta)) return undefined;
  const start = Number(meta.data_page_offset) - base;
  const end = start + Number(meta.total_compressed_size);
  const values = Number(meta.num_values);
  const pages: Page[] = [];
  let seen = 0;
  let at = start;
  while (seen < values) {
    if (at >= end) throw new RangeError(`parquet: column ${meta.path_in_schema.join('.')} ends after ${seen} of ${values} values`);
    const reader = new ThriftReader(bytes, at);
    const header = reader.struct();
    const compressed = header.get(3) as number;
    const uncompressed = header.get(2) as number;
    const page = header.get(5) as ThriftStruct | undefined;
    if (header.get(1) !== DATA_PAGE || page === undefined || page.get(2) !== PLAIN) return undefined;
    const body = bytes.subarray(reader.at, reader.at + compressed);
    if (body.length !== compressed) throw new RangeError('parquet: page past the end of the file');
    const count = page.get(1) as number;
    pages.push({ bytes: meta.codec === 'ZSTD' ? zstdDecompress(body, uncompressed) : body, values: count });
    seen += count;
    at = reader.at + compressed;
  }
  return pages;
}

/** The table of a file the direct writer could have written; undefined for any other Parquet file. */
export function decodeDirectParquet(bytes: Uint8Array): Table | undefined {
  if (bytes.length < 12) return undefined;
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.length - 8, true);
  if (footerLength + 12 > bytes.length) return undefined;
  // hyparquet parses the footer from its own copy of it (a few KiB), not of the whole file.
  const footer = new Uint8Array(footerLength + 8);
  footer.set(bytes.subarray(bytes.length - 8 - footerLength));
  const meta = parquetMetadata(footer.buffer, { geoparquet: false });
  const kv = new Map<string, string>();
  for (const { key, value } of meta.key_value_metadata ?? []) if (value !== undefined) kv.set(key, value);
  const encoded = kv.get(ARROW_SCHEMA);
  if (encoded === undefined) return undefined;
  const fileSchema = arrowSchemaOf(encoded);
  const leaves = meta.schema.slice(1);
  if (leaves.length !== fileSchema.fields.length || leaves.some((e) => e.num_children !== undefined || e.repetition_type !== 'REQUIRED')) return undefined;
  // As parquet-rs: the footer's key-value pairs, less the Arrow schema itself.
  kv.delete(ARROW_SCHEMA);
  const schema = new Schema(fileSchema.fields, new Map([...fileSchema.metadata, ...kv]));
  const batches: RecordBatch[] = [];
  for (const group of meta.row_groups) {
    const rows = Number(group.num_rows);
    if (group.columns.length !== schema.fields.length) return undefined;
    const children: Data[] = [];
    for (let c = 0; c < schema.fields.length; c++) {
      const chunk = group.columns[c]!.meta_data;
      if (chunk === undefined) return undefined;
      const decoder = decoderOf(schema.fields[c]!, chunk, leaves[c]!.type_length);
      if (decoder === undefined) return undefined;
      const pages = plainPages(bytes, chunk);
      if (pages === undefined) return undefined;
      children.push(decoder.finish(pages, rows));
    }
    batches.push(new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children })));
  }
  return new Table(schema, batches);
}
