/**
 * The footer of an Arrow IPC file: apache-arrow's file reader opens it from the tail (schema with
 * its metadata, the record batch blocks), and each batch's row count comes from its message
 * header alone (a few hundred bytes at the block's offset), never from its body. The bytes come
 * through a RangeFile, so the file may be local or an object in a bucket.
 */
import { DataType, Message, RecordBatchReader, type AsyncRecordBatchFileReader, type Field } from 'apache-arrow';
import { ARROW_MAGIC_BYTES, arrowMagicProblem } from '../arrow/arrow-file-magic.js';
import type { LakeStorage } from '../storage/lake-storage.js';
import type { FileFooter, FooterColumn } from './file-footer.js';
import { withRangeFile, type RangeFile } from './range-file.js';

function typeName(field: Field): string {
  const t = field.type;
  if (DataType.isDecimal(t)) return `DECIMAL(${t.precision},${t.scale})`;
  return String(t);
}

/**
 * A RangeFile dressed as the node FileHandle apache-arrow opens files from (it asks for `stat`,
 * positioned `read`s and `close`, and recognises a handle by its numeric `fd`). Closing stays the
 * caller's: the reader's close must not end a range file the caller still uses.
 */
function arrowHandle(range: RangeFile) {
  return {
    fd: -1,
    stat: () => Promise.resolve({ size: range.byteLength }),
    async read(buffer: Uint8Array, offset: number, length: number, position: number) {
      const bytes = new Uint8Array(await range.slice(position, position + length));
      buffer.set(bytes, offset);
      return { bytesRead: bytes.byteLength, buffer };
    },
    close: () => Promise.resolve(),
  };
}

/** Open an Arrow IPC file for reading by blocks; the caller closes the range file. */
export async function openArrowFile(range: RangeFile): Promise<AsyncRecordBatchFileReader> {
  const size = range.byteLength;
  const problem = arrowMagicProblem(size, new Uint8Array(await range.slice(0, ARROW_MAGIC_BYTES)), new Uint8Array(await range.slice(size - ARROW_MAGIC_BYTES)));
  if (problem !== undefined) throw new Error(problem);
  const reader = (await RecordBatchReader.from(arrowHandle(range) as never)) as unknown as AsyncRecordBatchFileReader;
  await reader.open();
  if (!reader.isFile()) throw new Error('not an Arrow IPC file (no ARROW1 footer)');
  return reader;
}

async function batchRows(range: RangeFile, offset: number, metaDataLength: number): Promise<number> {
  const buf = Buffer.from(await range.slice(offset, offset + metaDataLength));
  if (buf.byteLength < metaDataLength) throw new Error(`record batch header at byte ${offset} is cut short`);
  // Since Arrow 0.15 a message starts with 0xFFFFFFFF then its length; before, the length alone.
  const start = buf.readUInt32LE(0) === 0xffffffff ? 8 : 4;
  const message = Message.decode(buf.subarray(start));
  if (!message.isRecordBatch()) throw new Error(`block at byte ${offset} is not a record batch`);
  return Number(message.header().length);
}

export async function readArrowFooterOf(range: RangeFile): Promise<FileFooter> {
  const reader = await openArrowFile(range);
  const footer = reader.footer;
  if (!footer) throw new Error('not an Arrow IPC file (no footer)');
  let rows = 0;
  for (let i = 0; i < reader.numRecordBatches; i++) {
    const block = footer.getRecordBatch(i)!;
    rows += await batchRows(range, Number(block.offset), block.metaDataLength);
  }
  const columns: FooterColumn[] = reader.schema.fields.map((f) => ({ name: f.name, type: typeName(f) }));
  return { rows, bytes: range.byteLength, metadata: Object.fromEntries(reader.schema.metadata), columns, statistics: {} };
}

/** The footer of the Arrow IPC file at `key` (relative to the storage's root). */
export function readArrowFooter(storage: LakeStorage, key: string): Promise<FileFooter> {
  return withRangeFile(storage, key, readArrowFooterOf);
}
