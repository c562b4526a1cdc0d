/**
 * The footer of an Arrow IPC file: apache-arrow's file reader opens it from the tail (schema with
 * its metadata, the record batch blocks), and each batch's row count comes from its message
 * header alone (a few hundred bytes at the block's offset), never from its body.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { DataType, Message, RecordBatchReader, type AsyncRecordBatchFileReader, type Field } from 'apache-arrow';
import type { FileFooter, FooterColumn } from './file-footer.js';

function typeName(field: Field): string {
  const t = field.type;
  if (DataType.isDecimal(t)) return `DECIMAL(${t.precision},${t.scale})`;
  return String(t);
}

/** Open an Arrow IPC file for reading by blocks; the caller closes the handle. */
export async function openArrowFile(handle: FileHandle): Promise<AsyncRecordBatchFileReader> {
  const reader = (await RecordBatchReader.from(handle)) as unknown as AsyncRecordBatchFileReader;
  await reader.open();
  if (!reader.isFile()) throw new Error('not an Arrow IPC file (no ARROW1 footer)');
  return reader;
}

async function batchRows(handle: FileHandle, offset: number, metaDataLength: number): Promise<number> {
  const buf = Buffer.alloc(metaDataLength);
  const { bytesRead } = await handle.read(buf, 0, metaDataLength, offset);
  if (bytesRead < metaDataLength) throw new Error(`record batch header at byte ${offset} is cut short`);
  // Since Arrow 0.15 a message starts with 0xFFFFFFFF then its length; before, the length alone.
  const start = buf.readUInt32LE(0) === 0xffffffff ? 8 : 4;
  const message = Message.decode(buf.subarray(start));
  if (!message.isRecordBatch()) throw new Error(`block at byte ${offset} is not a record batch`);
  return Number(message.header().length);
}

export async function readArrowFooter(path: string): Promise<FileFooter> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const reader = await openArrowFile(handle);
    const footer = reader.footer;
    if (!footer) throw new Error('not an Arrow IPC file (no footer)');
    let rows = 0;
    for (let i = 0; i < reader.numRecordBatches; i++) {
      const block = footer.getRecordBatch(i)!;
      rows += await batchRows(handle, Number(block.offset), block.metaDataLength);
    }
    const columns: FooterColumn[] = reader.schema.fields.map((f) => ({ name: f.name, type: typeName(f) }));
    return { rows, bytes: size, metadata: Object.fromEntries(reader.schema.metadata), columns, statistics: {} };
  } finally {
    await handle.close();
  }
}
