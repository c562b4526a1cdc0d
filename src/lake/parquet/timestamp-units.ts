/**
 * The unit instants are stored in. Hive tables keep Timestamp(ms, UTC), as every quotelake lake
 * always has; a Delta table's `timestamp` type is microseconds (PROTOCOL.md "Primitive Types"), so
 * its files store TIMESTAMP(MICROS, isAdjustedToUTC=true). The sink's rows stay in milliseconds:
 * the encoder widens top-level timestamp columns on the way out (exact: ×1000), and the decoder
 * narrows any microsecond column back (exact for our files: they only hold whole milliseconds),
 * so merges and compactions see one schema whatever a table stores.
 */
import { DataType, Field, makeData, RecordBatch, Schema, Struct, Table, TimestampMicrosecond, TimestampMillisecond, type Data } from 'apache-arrow';

export type TimestampUnit = 'ms' | 'us';

const MS = 1; // apache-arrow TimeUnit.MILLISECOND
const US = 2; // TimeUnit.MICROSECOND

function retyped(table: Table, from: number, to: DataType, convert: (values: BigInt64Array, length: number) => BigInt64Array): Table {
  const fields = table.schema.fields;
  const hit = fields.map((f) => DataType.isTimestamp(f.type) && f.type.unit === from && f.type.timezone !== null && f.type.timezone !== undefined);
  if (!hit.some(Boolean)) return table;
  const schema = new Schema(
    fields.map((f, i) => (hit[i] ? new Field(f.name, to, f.nullable, f.metadata) : f)),
    table.schema.metadata,
  );
  const batches = table.batches.map((batch) => {
    const children: Data[] = batch.data.children.map((child, i) => {
      if (!hit[i]) return child;
      // A sliced column's values buffer is already sliced (its validity bitmap is not: see bitmapOf).
      const values = child.values as BigInt64Array;
      return makeData({ type: to as TimestampMicrosecond, offset: 0, length: child.length, nullCount: child.nullCount, nullBitmap: bitmapOf(child), data: convert(values, child.length) });
    });
    return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children }));
  });
  return new Table(schema, batches);
}

/** The validity bitmap re-based to offset 0 (a sliced column's bitmap starts mid-byte). */
function bitmapOf(child: Data): Uint8Array | undefined {
  if (child.nullCount === 0 || child.nullBitmap === undefined) return undefined;
  if (child.offset === 0) return child.nullBitmap;
  const out = new Uint8Array(Math.ceil(child.length / 8));
  for (let i = 0; i < child.length; i++) {
    const j = child.offset + i;
    if ((child.nullBitmap[j >> 3]! >> (j & 7)) & 1) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

const TWO_32 = 4294967296;
/** |ms| below this gives |µs| below 2^53: exact in a double (every instant up to the year 2255). */
const SAFE_MS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

/**
 * Every top-level Timestamp(ms, zone) column as Timestamp(µs, zone), values ×1000. On the 32-bit
 * halves in doubles, exact below SAFE_MS (a BigInt per value cost about half the direct writer's
 * encode time); a value beyond it goes through BigInt.
 */
export function toMicros(table: Table): Table {
  return retyped(table, MS, new TimestampMicrosecond('UTC'), (values, length) => {
    const out = new BigInt64Array(length);
    const src = new Int32Array(values.buffer, values.byteOffset, length * 2);
    const dst = new Int32Array(out.buffer);
    for (let i = 0; i < length; i++) {
      const ms = src[2 * i + 1]! * TWO_32 + (src[2 * i]! >>> 0);
      if (ms > SAFE_MS || ms < -SAFE_MS) {
        out[i] = values[i]! * 1000n;
        continue;
      }
      const us = ms * 1000;
      const hi = Math.floor(us / TWO_32);
      dst[2 * i] = us - hi * TWO_32; // 0 ≤ lo < 2^32, stored as its int32 bit pattern
      dst[2 * i + 1] = hi;
    }
    return out;
  });
}

/** Every top-level Timestamp(µs, zone) column as Timestamp(ms, zone), values ÷1000 (floor: a sub-ms instant is not ours). */
export function toMillis(table: Table): Table {
  return retyped(table, US, new TimestampMillisecond('UTC'), (values, length) => {
    const out = new BigInt64Array(length);
    for (let i = 0; i < length; i++) {
      const v = values[i]!;
      const q = v / 1000n;
      out[i] = v < 0n && q * 1000n !== v ? q - 1n : q;
    }
    return out;
  });
}
