/**
 * Arrow columns → PLAIN-encoded Parquet values, straight from the Arrow buffers, with the chunk's
 * min/max on the way. One encoder per supported Arrow type; the physical and logical Parquet types
 * are the ones parquet-rs picks for the same Arrow type, so a file reads back with the same schema
 * whichever writer made it:
 *
 * - Utf8 → BYTE_ARRAY (STRING); Timestamp(ms or µs, UTC) → INT64 (TIMESTAMP(MILLIS or MICROS, UTC));
 *   Int8 → INT32 (INT(8, signed)); Bool → BOOLEAN;
 * - Decimal128(p, s) → INT32 for p ≤ 9, INT64 for p ≤ 18, else FIXED_LEN_BYTE_ARRAY of the fewest
 *   bytes that hold p digits, big-endian two's complement. Decimals carry no statistics (as with
 *   parquet-rs here: they cost much and prune little).
 */
import { DataType, type Data, type Field } from 'apache-arrow';
import { decimalWordsFit, formatDecimalWords } from '../../../core/decimal.js';
import { ConvertedType, LogicalType, PhysicalType, type ChunkStatistics, type ColumnSchema } from './parquet-format.js';

/**
 * `count` rows of `data` from row `from`. As in apache-arrow's own readers, a sliced Data's value
 * and offset buffers already start at its first row; only a bitmap needs `data.offset`.
 */
export interface Slice {
  readonly data: Data;
  readonly from: number;
  readonly count: number;
}

export interface PlainColumnEncoder {
  readonly schema: ColumnSchema;
  /** PLAIN bytes of the slices' rows, one after the other (one page may span Arrow chunks). */
  encode(slices: readonly Slice[]): Uint8Array;
  /** Min/max of every value encoded since the last call (undefined: none kept), and start over. */
  takeStatistics(): ChunkStatistics | undefined;
}

function total(slices: readonly Slice[]): number {
  let n = 0;
  for (const slice of slices) n += slice.count;
  return n;
}

/** Unsigned byte-wise order (what Parquet uses for BYTE_ARRAY). */
function compareRange(bytes: Uint8Array, start: number, end: number, other: Uint8Array): number {
  const n = Math.min(end - start, other.length);
  for (let k = 0; k < n; k++) {
    const d = bytes[start + k]! - other[k]!;
    if (d !== 0) return d;
  }
  return end - start - other.length;
}

/** bytes[start..end) equals the bytes of the same length at `other`. */
function sameBytes(bytes: Uint8Array, start: number, end: number, other: number): boolean {
  for (let k = start; k < end; k++) if (bytes[k] !== bytes[other + k - start]) return false;
  return true;
}

// Encoders and statistics are classes, not closures made per file: V8 keeps a function's optimized
// code only while a closure of it lives, so closures made per file were compiled again after every
// full collection (and run interpreted until then): a long backfill spent about 5% more CPU.

class Utf8Encoder implements PlainColumnEncoder {
  readonly schema: ColumnSchema;
  private min: Uint8Array | undefined;
  private max: Uint8Array | undefined;

  constructor(name: string) {
    this.schema = { name, physical: PhysicalType.BYTE_ARRAY, converted: ConvertedType.UTF8, logical: LogicalType.string() };
  }

  encode(slices: readonly Slice[]): Uint8Array {
    let size = 0;
    for (const { data, from, count } of slices) {
      const offsets = data.valueOffsets as Int32Array;
      size += 4 * count + offsets[from + count]! - offsets[from]!;
    }
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    let at = 0;
    for (const { data, from, count } of slices) {
      const offsets = data.valueOffsets as Int32Array;
      const bytes = data.values as Uint8Array;
      let prevStart = -1;
      let prevEnd = -1;
      for (let i = from; i < from + count; i++) {
        const start = offsets[i]!;
        const end = offsets[i + 1]!;
        view.setUint32(at, end - start, true);
        at += 4;
        for (let k = start; k < end; k++) out[at++] = bytes[k]!;
        // Rows come in runs of one value (a product's bars): compare only when the value changes.
        // A slice's first value is always compared: `""` matches an empty "previous" too, and
        // skipping it once left "" out of min (no statistics at all for a chunk of only "").
        if (prevStart >= 0 && end - start === prevEnd - prevStart && sameBytes(bytes, start, end, prevStart)) continue;
        prevStart = start;
        prevEnd = end;
        if (this.min === undefined || compareRange(bytes, start, end, this.min) < 0) this.min = bytes.slice(start, end);
        if (this.max === undefined || compareRange(bytes, start, end, this.max) > 0) this.max = bytes.slice(start, end);
      }
    }
    return out;
  }

  takeStatistics(): ChunkStatistics | undefined {
    const stats = this.min !== undefined && this.max !== undefined ? { min: this.min, max: this.max } : undefined;
    this.min = this.max = undefined;
    return stats;
  }
}

/** 8-byte little-endian two's complement of a safe integer. */
function int64Bytes(v: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt(v), true);
  return out;
}

function int32Bytes(v: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setInt32(0, v, true);
  return out;
}

/** Min/max of a numeric column chunk, given as Parquet statistics in the column's byte form. */
class NumericStatistics {
  private min = Infinity;
  private max = -Infinity;

  constructor(private readonly bytesOf: (v: number) => Uint8Array) {}

  add(v: number): void {
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }

  take(): ChunkStatistics | undefined {
    const stats = this.min <= this.max ? { min: this.bytesOf(this.min), max: this.bytesOf(this.max) } : undefined;
    this.min = Infinity;
    this.max = -Infinity;
    return stats;
  }
}

class TimestampEncoder implements PlainColumnEncoder {
  readonly schema: ColumnSchema;
  private readonly stats = new NumericStatistics(int64Bytes);

  constructor(
    private readonly name: string,
    private readonly micros: boolean,
  ) {
    this.schema = micros
      ? { name, physical: PhysicalType.INT64, converted: ConvertedType.TIMESTAMP_MICROS, logical: LogicalType.timestampMicrosUtc() }
      : { name, physical: PhysicalType.INT64, converted: ConvertedType.TIMESTAMP_MILLIS, logical: LogicalType.timestampMillisUtc() };
  }

  encode(slices: readonly Slice[]): Uint8Array {
    const out = new Uint8Array(8 * total(slices));
    let at = 0;
    for (const { data, from, count } of slices) {
      const values = data.values as ArrayBufferView;
      out.set(new Uint8Array(values.buffer, values.byteOffset + from * 8, count * 8), at);
      at += count * 8;
    }
    const view = new DataView(out.buffer);
    for (let i = 0; i < out.length / 8; i++) {
      const ms = view.getUint32(8 * i, true) + view.getInt32(8 * i + 4, true) * 4294967296;
      // Statistics are kept as doubles: past 2^53 they would round (and be wrong), so refuse.
      if (!Number.isSafeInteger(ms)) throw new RangeError(`parquet: column ${this.name}: instant ${view.getBigInt64(8 * i, true)} ${this.micros ? 'µs' : 'ms'} is beyond ±(2^53 - 1)`);
      this.stats.add(ms);
    }
    return out;
  }

  takeStatistics(): ChunkStatistics | undefined {
    return this.stats.take();
  }
}

class Int8Encoder implements PlainColumnEncoder {
  readonly schema: ColumnSchema;
  private readonly stats = new NumericStatistics(int32Bytes);

  constructor(name: string) {
    this.schema = { name, physical: PhysicalType.INT32, converted: ConvertedType.INT_8, logical: LogicalType.int(8, true) };
  }

  encode(slices: readonly Slice[]): Uint8Array {
    const out = new Uint8Array(4 * total(slices));
    const view = new DataView(out.buffer);
    let at = 0;
    for (const { data, from, count } of slices) {
      const values = data.values as Int8Array;
      for (let i = from; i < from + count; i++, at += 4) {
        view.setInt32(at, values[i]!, true);
        this.stats.add(values[i]!);
      }
    }
    return out;
  }

  takeStatistics(): ChunkStatistics | undefined {
    return this.stats.take();
  }
}

class BoolEncoder implements PlainColumnEncoder {
  readonly schema: ColumnSchema;
  private seenFalse = false;
  private seenTrue = false;

  constructor(name: string) {
    this.schema = { name, physical: PhysicalType.BOOLEAN };
  }

  encode(slices: readonly Slice[]): Uint8Array {
    // PLAIN booleans are bit-packed LSB first, as an Arrow validity-style bitmap is; a page that
    // spans chunks goes on bit by bit where the last one stopped.
    const out = new Uint8Array((total(slices) + 7) >> 3);
    let i = 0;
    for (const { data, from, count } of slices) {
      const bits = data.values as Uint8Array;
      for (let j = data.offset + from; j < data.offset + from + count; j++, i++) {
        if (((bits[j >> 3]! >> (j & 7)) & 1) === 1) {
          out[i >> 3]! |= 1 << (i & 7);
          this.seenTrue = true;
        } else this.seenFalse = true;
      }
    }
    return out;
  }

  takeStatistics(): ChunkStatistics | undefined {
    const stats = this.seenFalse || this.seenTrue ? { min: Uint8Array.of(this.seenFalse ? 0 : 1), max: Uint8Array.of(this.seenTrue ? 1 : 0) } : undefined;
    this.seenFalse = this.seenTrue = false;
    return stats;
  }
}

/** Bytes parquet-rs gives a FIXED_LEN_BYTE_ARRAY decimal of `precision` digits. */
export function decimalByteLength(precision: number): number {
  return Math.ceil((Math.log2(10 ** precision) + 1) / 8);
}

/**
 * Every value is held to the column's precision before its words are cut to the physical width:
 * a wider one would wrap (INT32/INT64 keep the low words) or be a DECIMAL no reader accepts.
 */
abstract class DecimalEncoder implements PlainColumnEncoder {
  abstract readonly schema: ColumnSchema;

  constructor(
    protected readonly name: string,
    protected readonly precision: number,
    protected readonly scale: number,
  ) {}

  abstract encode(slices: readonly Slice[]): Uint8Array;

  protected check(words: Uint32Array, w: number): void {
    if (!decimalWordsFit(words, w, this.precision)) {
      throw new RangeError(`parquet: column ${this.name}: value ${formatDecimalWords(words, w, this.scale)} does not fit DECIMAL(${this.precision},${this.scale})`);
    }
  }

  /** Decimals carry no statistics. */
  takeStatistics(): undefined {
    return undefined;
  }
}

function decimalSchema(name: string, precision: number, scale: number) {
  return { name, converted: ConvertedType.DECIMAL, scale, precision, logical: LogicalType.decimal(scale, precision) };
}

/** p ≤ 18: a value that fits p digits fits the narrower integer; its low words are its two's complement. */
class DecimalIntEncoder extends DecimalEncoder {
  readonly schema: ColumnSchema;
  private readonly width: 1 | 2;

  constructor(name: string, precision: number, scale: number) {
    super(name, precision, scale);
    this.width = precision <= 9 ? 1 : 2;
    this.schema = { ...decimalSchema(name, precision, scale), physical: this.width === 1 ? PhysicalType.INT32 : PhysicalType.INT64 };
  }

  encode(slices: readonly Slice[]): Uint8Array {
    const width = this.width;
    const out = new Uint32Array(width * total(slices));
    let i = 0;
    for (const { data, from, count } of slices) {
      const words = data.values as Uint32Array;
      for (let w = 4 * from; w < 4 * (from + count); w += 4, i++) {
        this.check(words, w);
        out[width * i] = words[w]!;
        if (width === 2) out[2 * i + 1] = words[w + 1]!;
      }
    }
    return new Uint8Array(out.buffer);
  }
}

/** p > 18: FIXED_LEN_BYTE_ARRAY of the fewest bytes, big-endian. */
class DecimalFixedEncoder extends DecimalEncoder {
  readonly schema: ColumnSchema;
  private readonly length: number;

  constructor(name: string, precision: number, scale: number) {
    super(name, precision, scale);
    this.length = decimalByteLength(precision);
    this.schema = { ...decimalSchema(name, precision, scale), physical: PhysicalType.FIXED_LEN_BYTE_ARRAY, typeLength: this.length };
  }

  encode(slices: readonly Slice[]): Uint8Array {
    const full = this.bigEndian16(slices, total(slices));
    return this.length === 16 ? full : trimLeading(full, this.length);
  }

  /**
   * Each value as 16 big-endian bytes. The loops are the method's last statement: code compiled in
   * the middle of a loop's first run (OSR) has no type feedback for what follows the loop, and gave
   * up there call after call (10 deopts of `encode` in a 414-day backfill, each compiled again).
   */
  private bigEndian16(slices: readonly Slice[], n: number): Uint8Array {
    const full = new Uint8Array(16 * n);
    const view = new DataView(full.buffer);
    let i = 0;
    for (const { data, from, count } of slices) {
      const words = data.values as Uint32Array;
      for (let w = 4 * from; w < 4 * (from + count); w += 4, i++) {
        this.check(words, w);
        view.setUint32(16 * i, words[w + 3]!, false);
        view.setUint32(16 * i + 4, words[w + 2]!, false);
        view.setUint32(16 * i + 8, words[w + 1]!, false);
        view.setUint32(16 * i + 12, words[w]!, false);
      }
    }
    return full;
  }
}

/** The last `length` bytes of each 16-byte value: the leading ones a narrower FIXED_LEN_BYTE_ARRAY leaves out. */
function trimLeading(full: Uint8Array, length: number): Uint8Array {
  const n = full.length / 16;
  const skip = 16 - length;
  const out = new Uint8Array(length * n);
  for (let k = 0; k < n; k++) out.set(full.subarray(16 * k + skip, 16 * k + 16), length * k);
  return out;
}

/** The encoder of a REQUIRED column of this field, or undefined when this writer cannot write it. */
export function plainColumnEncoder(field: Field): PlainColumnEncoder | undefined {
  if (field.nullable) return undefined;
  const type = field.type as DataType;
  if (DataType.isUtf8(type)) return new Utf8Encoder(field.name);
  if (DataType.isBool(type)) return new BoolEncoder(field.name);
  if (DataType.isInt(type) && type.bitWidth === 8 && type.isSigned) return new Int8Encoder(field.name);
  // TimeUnit 1 = MILLISECOND (hive tables), 2 = MICROSECOND (Delta tables: timestamp-units.ts)
  if (DataType.isTimestamp(type) && (type.unit === 1 || type.unit === 2) && (type.timezone === 'UTC' || type.timezone === '+00:00')) return new TimestampEncoder(field.name, type.unit === 2);
  if (DataType.isDecimal(type) && type.bitWidth === 128) {
    return type.precision <= 18 ? new DecimalIntEncoder(field.name, type.precision, type.scale) : new DecimalFixedEncoder(field.name, type.precision, type.scale);
  }
  return undefined;
}
