/**
 * Rows → Arrow column data built straight from typed arrays (no per-value Arrow builders, no
 * BigInt per value), and back (for merges, which are rare).
 */
import { Bool, Int8, makeData, Utf8, type Data, type Decimal, type List, type Struct, type TimestampMillisecond, type Vector } from 'apache-arrow';
import { RowWithWords } from '../../core/carried-words.js';
import { formatDecimalWords, writeDecimalWords, type DecimalString } from '../../core/decimal.js';
import { SinkError } from '../../core/errors.js';

const TWO32 = 4294967296;

export function utf8Column(values: readonly (string | null)[]): Data<Utf8> {
  return utf8ColumnOf(values, (v) => v);
}

/** Utf8 column straight from rows (no intermediate array). */
export function utf8ColumnOf<R>(rows: readonly R[], get: (row: R) => string | null): Data<Utf8> {
  const n = rows.length;
  const offsets = new Int32Array(n + 1);
  let joined = '';
  let chars = 0;
  let bitmap: Uint8Array | undefined;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = get(rows[i]!);
    if (v != null) {
      joined += v;
      chars += v.length;
    } else {
      bitmap ??= new Uint8Array((n + 7) >> 3).fill(0xff);
      bitmap[i >> 3]! &= ~(1 << (i & 7));
      nulls++;
    }
    offsets[i + 1] = chars;
  }
  const data = Buffer.from(joined, 'utf8');
  if (data.length !== chars) {
    // Not all ASCII: offsets must count bytes, not UTF-16 units.
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const v = get(rows[i]!);
      if (v != null) bytes += Buffer.byteLength(v, 'utf8');
      offsets[i + 1] = bytes;
    }
  }
  return makeData({ type: new Utf8(), length: n, nullCount: nulls, nullBitmap: bitmap, data: new Uint8Array(data.buffer, data.byteOffset, data.length), valueOffsets: offsets });
}

export function timestampColumn(type: TimestampMillisecond, values: readonly (number | null)[]): Data<TimestampMillisecond> {
  return timestampColumnOf(type, values, (v) => v);
}

/** Instants (validated non-negative safe integers) split into two 32-bit halves: no BigInt per value. */
export function timestampColumnOf<R>(type: TimestampMillisecond, rows: readonly R[], get: (row: R) => number | null): Data<TimestampMillisecond> {
  const n = rows.length;
  const words = new Uint32Array(n * 2);
  let bitmap: Uint8Array | undefined;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const ms = get(rows[i]!);
    if (ms == null) {
      bitmap ??= new Uint8Array((n + 7) >> 3).fill(0xff);
      bitmap[i >> 3]! &= ~(1 << (i & 7));
      nulls++;
      continue;
    }
    const hi = Math.floor(ms / TWO32);
    words[2 * i] = ms - hi * TWO32;
    words[2 * i + 1] = hi;
  }
  return makeData({ type, length: n, nullCount: nulls, nullBitmap: bitmap, data: new BigInt64Array(words.buffer) });
}

export function decimalColumn(type: Decimal, values: readonly (DecimalString | null)[], column: string): Data<Decimal> {
  return decimalColumnOf(type, values, (v) => v, column);
}

/**
 * Decimal column straight from rows (no intermediate array); nulls tracked in the same pass.
 * `carried`: the column's index among the words a row may carry (carried-words.ts), copied
 * instead of parsing the text.
 */
export function decimalColumnOf<R>(type: Decimal, rows: readonly R[], get: (row: R) => DecimalString | null, column: string, carried = -1): Data<Decimal> {
  const n = rows.length;
  const words = new Uint32Array(n * 4);
  const scale = type.scale;
  let bitmap: Uint8Array | undefined;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    if (carried >= 0 && RowWithWords.copyWords(row as object, carried, scale, words, 4 * i)) continue;
    const v = get(row);
    if (v == null) {
      bitmap ??= new Uint8Array((n + 7) >> 3).fill(0xff);
      bitmap[i >> 3]! &= ~(1 << (i & 7));
      nulls++;
      continue;
    }
    if (!writeDecimalWords(v, scale, words, 4 * i)) {
      throw new SinkError(`column ${column}: value ${JSON.stringify(v)} does not fit DECIMAL(${type.precision},${scale})`);
    }
  }
  return makeData({ type, length: n, nullCount: nulls, nullBitmap: bitmap, data: words });
}

export function boolColumn(values: readonly boolean[]): Data<Bool> {
  return boolColumnOf(values, (v) => v);
}

export function boolColumnOf<R>(rows: readonly R[], get: (row: R) => boolean): Data<Bool> {
  const n = rows.length;
  const bits = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (get(rows[i]!)) bits[i >> 3]! |= 1 << (i & 7);
  return makeData({ type: new Bool(), length: n, nullCount: 0, data: bits });
}

export function int8Column(values: readonly number[]): Data<Int8> {
  return makeData({ type: new Int8(), length: values.length, nullCount: 0, data: Int8Array.from(values) });
}

export interface LevelValue {
  readonly price: DecimalString;
  readonly volume: DecimalString | null;
}

export function levelListColumn(type: List<Struct>, lists: readonly (readonly LevelValue[])[], column: string): Data<List<Struct>> {
  const n = lists.length;
  const offsets = new Int32Array(n + 1);
  const prices: DecimalString[] = [];
  const volumes: (DecimalString | null)[] = [];
  for (let i = 0; i < n; i++) {
    for (const level of lists[i]!) {
      prices.push(level.price);
      volumes.push(level.volume);
    }
    offsets[i + 1] = prices.length;
  }
  const structType = type.children[0]!.type as Struct;
  const decType = structType.children[0]!.type as Decimal;
  const child = makeData({
    type: structType,
    length: prices.length,
    nullCount: 0,
    children: [decimalColumn(decType, prices, `${column}.price`), decimalColumn(decType, volumes, `${column}.volume`)],
  });
  return makeData({ type, length: n, nullCount: 0, valueOffsets: offsets, child });
}

// ---- back from Arrow (merge path) ----

export function readDecimal(vector: Vector, i: number, scale: number): DecimalString | null {
  const v = vector.get(i) as Uint32Array | null;
  return v == null ? null : formatDecimalWords(v, 0, scale);
}

export function readTimestamp(vector: Vector, i: number): number | null {
  const v = vector.get(i) as number | bigint | null;
  return v == null ? null : Number(v);
}

export function readLevels(vector: Vector, i: number, scale: number): LevelValue[] {
  const list = vector.get(i) as Vector | null;
  if (list == null) return [];
  const out: LevelValue[] = [];
  for (let k = 0; k < list.length; k++) {
    const s = list.get(k) as { price: Uint32Array; volume: Uint32Array | null };
    out.push({ price: formatDecimalWords(s.price, 0, scale), volume: s.volume == null ? null : formatDecimalWords(s.volume, 0, scale) });
  }
  return out;
}
