import { describe, expect, it } from 'vitest';
import { encodeStruct, T } from '../../../src/lake/parquet/direct/thrift-compact.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('thrift compact writer', () => {
  it('writes field headers as id deltas, ints as zigzag varints, and a stop byte', () => {
    // field 1 i32 = 1 → 0x15 0x02; field 3 i64 = -1 → delta 2: 0x26 0x01; stop 0x00
    expect(hex(encodeStruct([[1, T.I32, 1], [3, T.I64, -1]]))).toBe('1502260100');
  });

  it('writes a long id jump with the id after the type, and booleans in the header', () => {
    // field 20 (delta 20 > 15): type byte then zigzag(20) = 40; field 21 true: delta 1, type 1
    expect(hex(encodeStruct([[20, T.I32, 0], [21, T.BOOL, true], [22, T.BOOL, false]]))).toBe('05280011120' + '0');
  });

  it('writes strings with a varint length and values past 2^32 exactly', () => {
    // 2^40 zigzag = 2^41 → varint 80 80 80 80 80 40
    expect(hex(encodeStruct([[1, T.BINARY, 'ab'], [2, T.I64, 2 ** 40]]))).toBe('1802616216808080808040' + '00');
  });

  it('writes short and long lists, and nested structs with their own id counters', () => {
    const long = Array.from({ length: 16 }, (_, i) => i);
    const bytes = encodeStruct([
      [1, T.LIST, { elements: T.I32, items: [1, 2] }],
      [2, T.LIST, { elements: T.I32, items: long }],
      [3, T.LIST, { elements: T.STRUCT, items: [[[1, T.I32, 3]]] }],
    ]);
    expect(hex(bytes)).toBe('19' + '25' + '0204' + '19' + 'f5' + '10' + long.map((i) => (i * 2).toString(16).padStart(2, '0')).join('') + '19' + '1c' + '1506' + '00' + '00');
  });

  it('rejects fields out of order and values that are not safe integers', () => {
    expect(() => encodeStruct([[2, T.I32, 1], [1, T.I32, 1]])).toThrow('field 1 after 2');
    expect(() => encodeStruct([[1, T.I64, 2 ** 60]])).toThrow('not a safe integer');
  });
});
