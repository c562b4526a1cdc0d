/**
 * The Thrift compact protocol, read side, only as far as a Parquet page header needs: a struct is
 * read into a map of field id → value (integers as numbers, nested structs as maps, binaries as
 * bytes); lists, sets and maps are skipped, as nothing the page reader uses is one.
 */

export type ThriftValue = number | boolean | Uint8Array | ThriftStruct | undefined;
export type ThriftStruct = Map<number, ThriftValue>;

export class ThriftReader {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  private byte(): number {
    if (this.at >= this.bytes.length) throw new RangeError('thrift: truncated');
    return this.bytes[this.at++]!;
  }

  /** Unsigned LEB128, exact up to 2^53 (page headers hold sizes and counts far below that). */
  private varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return value;
      scale *= 128;
      if (scale > 2 ** 56) throw new RangeError('thrift: varint too long');
    }
  }

  private zigzag(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }

  private value(type: number): ThriftValue {
    switch (type) {
      case 1:
        return true;
      case 2:
        return false;
      case 3:
        return (this.byte() << 24) >> 24;
      case 4:
      case 5:
      case 6:
        return this.zigzag();
      case 7:
        this.at += 8;
        return undefined;
      case 8: {
        const n = this.varint();
        if (this.at + n > this.bytes.length) throw new RangeError('thrift: truncated');
        const out = this.bytes.subarray(this.at, this.at + n);
        this.at += n;
        return out;
      }
      case 9:
      case 10: {
        const head = this.byte();
        const size = head >> 4 === 15 ? this.varint() : head >> 4;
        const element = head & 15;
        for (let i = 0; i < size; i++) this.value(element === 1 || element === 2 ? 3 : element);
        return undefined;
      }
      case 11: {
        const size = this.varint();
        if (size === 0) return undefined;
        const kinds = this.byte();
        for (let i = 0; i < size; i++) {
          this.value(kinds >> 4);
          this.value(kinds & 15);
        }
        return undefined;
      }
      case 12:
        return this.struct();
      default:
        throw new RangeError(`thrift: unknown type ${type}`);
    }
  }

  struct(): ThriftStruct {
    const fields: ThriftStruct = new Map();
    let id = 0;
    for (;;) {
      const head = this.byte();
      if (head === 0) return fields;
      const delta = head >> 4;
      id = delta === 0 ? this.zigzag() : id + delta;
      fields.set(id, this.value(head & 15));
    }
  }
}
