/**
 * Arrow column data across a thread boundary without copying: `packColumns` strips each `Data` to
 * its buffers and lists the ArrayBuffers to transfer (each once, however many views share it);
 * `unpackColumns` rebuilds the `Data` on the other side from the schema's types.
 *
 * Transferring detaches the buffers on the sending side: the caller must not use the columns, nor
 * anything that shares their buffers (e.g. the column builder that made them), afterwards.
 */
import * as workerThreads from 'node:worker_threads';
import { makeData, type Data, type DataType, type Field } from 'apache-arrow';

type View = ArrayBufferView;

/** One `Data` as plain values and typed arrays (what structured clone can carry). */
export interface PackedData {
  readonly offset: number;
  readonly length: number;
  readonly nullCount: number;
  readonly valueOffsets: View | undefined;
  readonly values: View | undefined;
  readonly nullBitmap: View | undefined;
  readonly children: readonly PackedData[];
}

export interface PackedColumns {
  readonly columns: PackedData[];
  readonly transfer: ArrayBuffer[];
}

/**
 * A buffer no larger than a slab of Node's Buffer pool (8 KiB by default, shared by small Buffers,
 * e.g. a short `Buffer.from(text)`) is copied rather than moved: a slab must never be detached, and
 * Node 20 neither marks slabs untransferable nor tells whether a buffer is one. Anything larger is
 * a buffer of its own (a slab is never larger than the pool size), so it moves without a copy.
 */
const maySharePool = (buffer: ArrayBuffer) => buffer.byteLength <= Math.max(8192, Buffer.poolSize);

const isUntransferable = (workerThreads as { isMarkedAsUntransferable?: (o: unknown) => boolean }).isMarkedAsUntransferable;

export function packColumns(columns: readonly Data[]): PackedColumns {
  const transfer = new Set<ArrayBuffer>();
  const view = <V extends View>(v: V | undefined): V | undefined => {
    if (v === undefined || v.byteLength === 0) return undefined;
    const buffer = v.buffer;
    if (!(buffer instanceof ArrayBuffer) || maySharePool(buffer) || isUntransferable?.(buffer) === true) {
      // A Buffer is a Uint8Array to Arrow; its own constructor on an ArrayBuffer is deprecated.
      const Ctor = (Buffer.isBuffer(v) ? Uint8Array : v.constructor) as new (b: ArrayBuffer) => V;
      return new Ctor(copyOf(v));
    }
    transfer.add(buffer);
    return v;
  };
  const pack = (data: Data): PackedData => {
    if (data.typeIds !== undefined || data.dictionary !== undefined) throw new Error(`cannot pack ${String(data.type)} columns`);
    return {
      offset: data.offset,
      length: data.length,
      nullCount: data.nullCount,
      valueOffsets: view(data.valueOffsets as View | undefined),
      values: view(data.values as View | undefined),
      nullBitmap: view(data.nullBitmap as View | undefined),
      children: data.children.map(pack),
    };
  };
  const packed = columns.map(pack);
  return { columns: packed, transfer: [...transfer] };
}

function copyOf(v: View): ArrayBuffer {
  return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer;
}

/** The `Data` of each field, rebuilt on the packed buffers (no copy). */
export function unpackColumns(fields: readonly Field[], columns: readonly PackedData[]): Data[] {
  if (fields.length !== columns.length) throw new Error(`expected ${fields.length} columns, got ${columns.length}`);
  return fields.map((f, i) => unpack(f.type, columns[i]!));
}

function unpack(type: DataType, p: PackedData): Data {
  const childFields = (type.children ?? []) as Field[];
  if (childFields.length !== p.children.length) throw new Error(`${String(type)}: expected ${childFields.length} children, got ${p.children.length}`);
  const children = childFields.map((f, i) => unpack(f.type, p.children[i]!));
  // makeData picks what the type needs: `data` for fixed-width and Utf8 values, `valueOffsets`
  // for Utf8 and List, `child` for List, `children` for Struct.
  return makeData({
    type,
    offset: p.offset,
    length: p.length,
    nullCount: p.nullCount,
    nullBitmap: p.nullBitmap,
    valueOffsets: p.valueOffsets,
    data: p.values,
    children,
    child: children[0],
  } as never);
}
