/**
 * The Parquet footer and page header structs (apache/parquet-format, `parquet.thrift`), only the
 * fields a file of flat REQUIRED columns with PLAIN pages and chunk statistics uses. Field ids and
 * enum values are the format's own.
 */
import { encodeStruct, T, type Struct } from './thrift-compact.js';

export const PhysicalType = { BOOLEAN: 0, INT32: 1, INT64: 2, BYTE_ARRAY: 6, FIXED_LEN_BYTE_ARRAY: 7 } as const;
export const ConvertedType = { UTF8: 0, DECIMAL: 5, TIMESTAMP_MILLIS: 9, TIMESTAMP_MICROS: 10, INT_8: 15 } as const;
const Encoding = { PLAIN: 0, RLE: 3 } as const;
const CODEC_ZSTD = 6;
const REQUIRED = 0;
const DATA_PAGE = 0;

/** LogicalType union members. */
export const LogicalType = {
  string: (): Struct => [[1, T.STRUCT, []]],
  decimal: (scale: number, precision: number): Struct => [[5, T.STRUCT, [[1, T.I32, scale], [2, T.I32, precision]]]],
  /** TIMESTAMP(isAdjustedToUTC = true, unit = MILLIS) */
  timestampMillisUtc: (): Struct => [[8, T.STRUCT, [[1, T.BOOL, true], [2, T.STRUCT, [[1, T.STRUCT, []]]]]]],
  /** TIMESTAMP(isAdjustedToUTC = true, unit = MICROS): TimeUnit's field 2 (what a Delta table's `timestamp` requires) */
  timestampMicrosUtc: (): Struct => [[8, T.STRUCT, [[1, T.BOOL, true], [2, T.STRUCT, [[2, T.STRUCT, []]]]]]],
  int: (bitWidth: number, signed: boolean): Struct => [[10, T.STRUCT, [[1, T.I8, bitWidth], [2, T.BOOL, signed]]]],
};

export interface ColumnSchema {
  readonly name: string;
  readonly physical: number;
  readonly typeLength?: number;
  readonly converted?: number;
  readonly scale?: number;
  readonly precision?: number;
  readonly logical?: Struct;
}

export interface ChunkStatistics {
  readonly min: Uint8Array;
  readonly max: Uint8Array;
}

/** Where one column chunk landed in the file. */
export interface WrittenChunk {
  readonly column: ColumnSchema;
  readonly values: number;
  readonly dataPageOffset: number;
  readonly uncompressedBytes: number;
  readonly compressedBytes: number;
  readonly statistics: ChunkStatistics | undefined;
}

export interface WrittenRowGroup {
  readonly rows: number;
  readonly fileOffset: number;
  readonly chunks: readonly WrittenChunk[];
}

/** A V1 data page of `values` PLAIN values and no levels (every column is REQUIRED). */
export function dataPageHeader(values: number, uncompressedBytes: number, compressedBytes: number): Uint8Array {
  return encodeStruct([
    [1, T.I32, DATA_PAGE],
    [2, T.I32, uncompressedBytes],
    [3, T.I32, compressedBytes],
    [5, T.STRUCT, [[1, T.I32, values], [2, T.I32, Encoding.PLAIN], [3, T.I32, Encoding.RLE], [4, T.I32, Encoding.RLE]]],
  ]);
}

function schemaElement(c: ColumnSchema): Struct {
  const fields: Struct[number][] = [[1, T.I32, c.physical]];
  if (c.typeLength !== undefined) fields.push([2, T.I32, c.typeLength]);
  fields.push([3, T.I32, REQUIRED], [4, T.BINARY, c.name]);
  if (c.converted !== undefined) fields.push([6, T.I32, c.converted]);
  if (c.scale !== undefined) fields.push([7, T.I32, c.scale]);
  if (c.precision !== undefined) fields.push([8, T.I32, c.precision]);
  if (c.logical !== undefined) fields.push([10, T.STRUCT, c.logical]);
  return fields;
}

function columnChunk(c: WrittenChunk): Struct {
  const meta: Struct[number][] = [
    [1, T.I32, c.column.physical],
    [2, T.LIST, { elements: T.I32, items: [Encoding.PLAIN] }],
    [3, T.LIST, { elements: T.BINARY, items: [c.column.name] }],
    [4, T.I32, CODEC_ZSTD],
    [5, T.I64, c.values],
    [6, T.I64, c.uncompressedBytes],
    [7, T.I64, c.compressedBytes],
    [9, T.I64, c.dataPageOffset],
  ];
  if (c.statistics !== undefined) {
    meta.push([12, T.STRUCT, [[3, T.I64, 0], [5, T.BINARY, c.statistics.max], [6, T.BINARY, c.statistics.min]]]);
  }
  return [
    [2, T.I64, c.dataPageOffset],
    [3, T.STRUCT, meta],
  ];
}

/** FileMetaData: the footer that follows the row groups. */
export function fileMetaData(options: {
  readonly columns: readonly ColumnSchema[];
  readonly rows: number;
  readonly rowGroups: readonly WrittenRowGroup[];
  readonly keyValues: ReadonlyMap<string, string>;
  readonly createdBy: string;
}): Uint8Array {
  const root: Struct = [
    [4, T.BINARY, 'arrow_schema'],
    [5, T.I32, options.columns.length],
  ];
  const rowGroups: Struct[] = options.rowGroups.map((g, ordinal) => {
    const compressed = g.chunks.reduce((n, c) => n + c.compressedBytes, 0);
    return [
      [1, T.LIST, { elements: T.STRUCT, items: g.chunks.map(columnChunk) }],
      [2, T.I64, g.chunks.reduce((n, c) => n + c.uncompressedBytes, 0)],
      [3, T.I64, g.rows],
      [5, T.I64, g.fileOffset],
      [6, T.I64, compressed],
      [7, T.I16, ordinal],
    ];
  });
  return encodeStruct([
    [1, T.I32, 1],
    [2, T.LIST, { elements: T.STRUCT, items: [root, ...options.columns.map(schemaElement)] }],
    [3, T.I64, options.rows],
    [4, T.LIST, { elements: T.STRUCT, items: rowGroups }],
    [5, T.LIST, { elements: T.STRUCT, items: [...options.keyValues].map(([k, v]): Struct => [[1, T.BINARY, k], [2, T.BINARY, v]]) }],
    [6, T.BINARY, options.createdBy],
    // TYPE_ORDER for every column: readers may trust min_value / max_value.
    [7, T.LIST, { elements: T.STRUCT, items: options.columns.map((): Struct => [[1, T.STRUCT, []]]) }],
  ]);
}
