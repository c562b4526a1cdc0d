/**
 * Rows picked by index out of Arrow columns, as fresh columns: the columnar half of a merge or a
 * de-duplication (which rows survive, in which order, is decided on the key columns alone). Values
 * are copied as the bits they are (decimal words, instants, UTF-8 bytes), never through a JS value,
 * so nothing is rounded and no decimal is turned into text and back.
 *
 * Flat types only (fixed width, booleans, UTF-8, with or without nulls): `takeable` tells whether a
 * schema qualifies; a dataset with nested columns (order book levels) keeps the row path.
 */
import { DataType, makeData, type Data, type Field } from 'apache-arrow';

/** Where each selected row lives: its input chunk and its index there. */
export interface RowPicks {
  readonly chunk: Int32Array;
  readonly row: Int32Array;
}

/** Bit `at` of an Arrow bitmap (least significant bit first): validity and boolean values. */
export function bitAt(bits: Uint8Array, at: number): boolean {
  return (bits[at >> 3]! & (1 << (at & 7))) !== 0;
}

/** Whether every field is of a type takeRows copies. */
export function takeable(fields: readonly Field[]): boolean {
  return fields.every((f) => DataType.isUtf8(f.type) || DataType.isBool(f.type) || fixedWidthBytes(f.type) !== undefined);
}

/** Bytes per value of a fixed-width type (a Decimal128 is four 32-bit words of its Uint32Array). */
function fixedWidthBytes(type: DataType): number | undefined {
  const flat = DataType.isInt(type) || DataType.isFloat(type) || DataType.isDecimal(type) || DataType.isTimestamp(type) || DataType.isDate(type) || DataType.isTime(type);
  if (!flat) return undefined;
  const perElement = (type.ArrayType as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  return DataType.isDecimal(type) ? type.bitWidth / 8 : perElement;
}

/** One column of the picked rows, from the same column of every chunk (chunks share its type). */
export function takeRows(column: readonly Data[], picks: RowPicks): Data {
  const type = column[0]!.type;
  const n = picks.row.length;
  const nullBitmap = takeValidity(column, picks);
  const nullCount = nullBitmap === undefined ? 0 : n - countOnes(nullBitmap, n);
  const common = { type, length: n, nullCount, ...(nullBitmap === undefined ? {} : { nullBitmap }) };
  if (DataType.isUtf8(type)) return makeData({ ...common, ...takeUtf8(column, picks) } as never);
  if (DataType.isBool(type)) return makeData({ ...common, data: takeBits(column, picks, (d) => d.values as Uint8Array) } as never);
  const width = fixedWidthBytes(type);
  if (width === undefined) throw new TypeError(`takeRows: column type ${String(type)} is not flat`);
  const bytes = takeFixed(column, picks, width);
  const Values = (type as unknown as { ArrayType: new (b: ArrayBuffer, o: number, l: number) => ArrayBufferView }).ArrayType;
  const perValue = (Values as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  return makeData({ ...common, data: new Values(bytes.buffer as ArrayBuffer, 0, bytes.byteLength / perValue) } as never);
}

/** The validity bits of the picked rows, or undefined when no input has a null. */
function takeValidity(column: readonly Data[], picks: RowPicks): Uint8Array | undefined {
  if (column.every((d) => d.nullCount === 0)) return undefined;
  return takeBits(column, picks, (d) => (d.nullCount === 0 ? undefined : d.nullBitmap), true);
}

/** Bit-packed values of the picked rows (Arrow's LSB order; bitmaps count from the Data's offset). */
function takeBits(column: readonly Data[], picks: RowPicks, bitsOf: (d: Data) => Uint8Array | undefined, absentIsSet = false): Uint8Array {
  const n = picks.row.length;
  const out = new Uint8Array(((n + 63) & ~63) >> 3);
  const sources = column.map(bitsOf);
  for (let i = 0; i < n; i++) {
    const c = picks.chunk[i]!;
    const bits = sources[c];
    let set: boolean;
    if (bits === undefined) set = absentIsSet;
    else {
      const at = column[c]!.offset + picks.row[i]!;
      set = bitAt(bits, at);
    }
    if (set) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

function countOnes(bits: Uint8Array, n: number): number {
  let ones = 0;
  for (let i = 0; i < n; i++) if (bitAt(bits, i)) ones++;
  return ones;
}

/** Consecutive rows of one chunk copied with one set() (a view object, then memcpy); shorter stretches value by value. */
const MIN_STRETCH = 8;

/**
 * How many picks from index i on are consecutive rows of one chunk (at least 1): a partition read
 * as the disjoint pages of a walk is a few such stretches, copied whole instead of row by row.
 */
function stretchAt(picks: RowPicks, i: number, n: number): number {
  const chunk = picks.chunk[i]!;
  const row = picks.row[i]!;
  let j = i + 1;
  while (j < n && picks.chunk[j] === chunk && picks.row[j] === row + (j - i)) j++;
  return j - i;
}

/** Fixed-width values (already sliced to the Data's offset by Arrow) copied word by word, or a stretch at a time. */
function takeFixed(column: readonly Data[], picks: RowPicks, width: number): Uint8Array {
  const n = picks.row.length;
  const out = new Uint8Array(n * width);
  const views = column.map((d) => d.values as ArrayBufferView);
  if (width % 4 === 0 && views.every((v) => v.byteOffset % 4 === 0)) {
    const words = width / 4;
    const dst = new Uint32Array(out.buffer);
    const srcs = views.map((v) => new Uint32Array(v.buffer, v.byteOffset, v.byteLength >> 2));
    for (let i = 0; i < n; ) {
      const src = srcs[picks.chunk[i]!]!;
      const from = picks.row[i]! * words;
      const len = stretchAt(picks, i, n);
      if (len >= MIN_STRETCH) dst.set(src.subarray(from, from + len * words), i * words);
      else for (let w = 0, to = i * words; w < len * words; w++) dst[to + w] = src[from + w]!;
      i += len;
    }
    return out;
  }
  const srcs = views.map((v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  for (let i = 0; i < n; i++) {
    const from = picks.row[i]! * width;
    out.set(srcs[picks.chunk[i]!]!.subarray(from, from + width), i * width);
  }
  return out;
}

/** Longer values are copied with one set() (a view object, then memcpy); shorter ones byte by byte. */
const SHORT_VALUE_BYTES = 32;

function takeUtf8(column: readonly Data[], picks: RowPicks): { valueOffsets: Int32Array; data: Uint8Array } {
  const n = picks.row.length;
  const offsetsOf = column.map((d) => d.valueOffsets as Int32Array);
  const bytesOf = column.map((d) => d.values as Uint8Array);
  const valueOffsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const o = offsetsOf[picks.chunk[i]!]!;
    const r = picks.row[i]!;
    total += o[r + 1]! - o[r]!;
    valueOffsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < n; ) {
    const c = picks.chunk[i]!;
    const o = offsetsOf[c]!;
    const r = picks.row[i]!;
    // A stretch of consecutive rows is one run of bytes; keys and codes are a few bytes each, so a
    // short one is copied in place, not through a view object.
    const len = stretchAt(picks, i, n);
    const from = o[r]!;
    const end = o[r + len]!;
    const src = bytesOf[c]!;
    if (end - from > SHORT_VALUE_BYTES) data.set(src.subarray(from, end), valueOffsets[i]!);
    else for (let k = from, to = valueOffsets[i]!; k < end; k++, to++) data[to] = src[k]!;
    i += len;
  }
  return { valueOffsets, data };
}
