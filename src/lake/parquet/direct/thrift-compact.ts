/**
 * The Thrift compact protocol, write side only, for the few structs a Parquet footer and page
 * header need. A struct is a list of fields; each field names its id, type and value, so the
 * Parquet structs read like the `parquet.thrift` they come from.
 */

export const T = {
  BOOL: 1, // in a field header: 1 true, 2 false
  I8: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  BINARY: 8,
  LIST: 9,
  STRUCT: 12,
} as const;

export type Field =
  | readonly [id: number, type: typeof T.BOOL, value: boolean]
  | readonly [id: number, type: typeof T.I8 | typeof T.I16 | typeof T.I32 | typeof T.I64, value: number]
  | readonly [id: number, type: typeof T.BINARY, value: string | Uint8Array]
  | readonly [id: number, type: typeof T.STRUCT, value: Struct]
  | readonly [id: number, type: typeof T.LIST, value: List];

/** Fields in increasing id order; an absent optional field is simply left out. */
export type Struct = readonly Field[];

export type List =
  | { readonly elements: typeof T.I32 | typeof T.I64; readonly items: readonly number[] }
  | { readonly elements: typeof T.BINARY; readonly items: readonly (string | Uint8Array)[] }
  | { readonly elements: typeof T.STRUCT; readonly items: readonly Struct[] };

const utf8 = new TextEncoder();

class ByteSink {
  private buf = new Uint8Array(256);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Unsigned varint of a non-negative safe integer (no 32-bit operators: values reach 2^53). */
  varint(n: number): void {
    while (n >= 0x80) {
      this.byte((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.byte(n);
  }

  /** Zigzag varint of a safe integer. */
  zigzag(n: number): void {
    if (!Number.isSafeInteger(n)) throw new RangeError(`thrift: ${n} is not a safe integer`);
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }

  binary(v: string | Uint8Array): void {
    const b = typeof v === 'string' ? utf8.encode(v) : v;
    this.varint(b.length);
    this.bytes(b);
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function writeStruct(out: ByteSink, fields: Struct): void {
  let last = 0;
  for (const [id, type, value] of fields) {
    if (id <= last) throw new Error(`thrift: field ${id} after ${last}`);
    const wire = type === T.BOOL ? (value ? 1 : 2) : type;
    const delta = id - last;
    if (delta <= 15) out.byte((delta << 4) | wire);
    else {
      out.byte(wire);
      out.zigzag(id);
    }
    last = id;
    writeValue(out, type, value);
  }
  out.byte(0); // STOP
}

function writeValue(out: ByteSink, type: number, value: unknown): void {
  switch (type) {
    case T.BOOL:
      return; // carried by the field header
    case T.I8:
      out.byte((value as number) & 0xff);
      return;
    case T.I16:
    case T.I32:
    case T.I64:
      out.zigzag(value as number);
      return;
    case T.BINARY:
      out.binary(value as string | Uint8Array);
      return;
    case T.STRUCT:
      writeStruct(out, value as Struct);
      return;
    case T.LIST: {
      const list = value as List;
      const n = list.items.length;
      if (n < 15) out.byte((n << 4) | list.elements);
      else {
        out.byte(0xf0 | list.elements);
        out.varint(n);
      }
      for (const item of list.items) writeValue(out, list.elements, item);
      return;
    }
    default:
      throw new Error(`thrift: unsupported type ${type}`);
  }
}

/** One struct, compact-encoded. */
export function encodeStruct(fields: Struct): Uint8Array {
  const out = new ByteSink();
  writeStruct(out, fields);
  return out.result();
}
