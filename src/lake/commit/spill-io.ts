/**
 * Writing and reading the sink's spills (uncompressed Arrow IPC streams in local scratch) without
 * a fresh file-sized buffer each time. A long backfill spills a partition every few pages (about
 * 900 spills of 1-2 MB in a 5M-row run); a buffer per write (`tableToIPC` joins the stream into
 * one) and per read (`readFile`) is garbage that V8 frees only at its next collection, and up to
 * its external-memory limit (tens of MB) of it piled up in the main thread's malloc heap, which
 * keeps its high-water mark: the long run's resident memory crept up by that much.
 *
 * - writeSpill: the stream's pieces (message headers, then views of the column buffers) go to the
 *   file in one writev, never joined.
 * - SpillReader: the spills of one partition are read into one buffer that the reader keeps and
 *   reuses (grown when a partition needs more); the tables are views of it, valid until the next
 *   read() (the sink copies their rows out before it reads another partition's spills).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { RecordBatchStreamWriter, tableFromIPC, type Table } from 'apache-arrow';
import { withPath } from '../../core/atomic-write.js';

export async function writeSpill(path: string, table: Table): Promise<void> {
  const pieces: Uint8Array[] = [];
  for await (const piece of RecordBatchStreamWriter.writeAll(table)) pieces.push(piece);
  const file = await open(path, 'w').catch((error: unknown) => {
    throw withPath(error, path);
  });
  try {
    let total = 0;
    for (const p of pieces) total += p.byteLength;
    const { bytesWritten } = await file.writev(pieces);
    // A regular file takes the whole writev; should it ever not, the rest goes in one more write.
    if (bytesWritten < total) await file.write(Buffer.concat(pieces).subarray(bytesWritten));
  } catch (error) {
    throw withPath(error, path);
  } finally {
    await file.close();
  }
}

/** IPC body buffers are 8-byte aligned within a stream: each file starts on 8 bytes, so the tables view it without copies. */
const align8 = (n: number) => Math.ceil(n / 8) * 8;

export class SpillReader {
  private buffer = new Uint8Array(0);
  private busy = false;

  /** The tables of these spill files, in order: views of the reader's buffer until the next read(). */
  async read(paths: readonly string[]): Promise<Table[]> {
    if (this.busy) throw new Error('SpillReader: read() while the last one is still reading');
    this.busy = true;
    const files: { path: string; file: FileHandle; size: number; at: number }[] = [];
    try {
      let need = 0;
      for (const path of paths) {
        const file = await open(path, 'r').catch((error: unknown) => {
          throw withPath(error, path);
        });
        const entry = { path, file, size: 0, at: need };
        files.push(entry);
        entry.size = (await file.stat()).size;
        need += align8(entry.size);
      }
      if (this.buffer.byteLength < need) this.buffer = new Uint8Array(align8(Math.max(need, this.buffer.byteLength * 2)));
      const tables: Table[] = [];
      for (const { path, file, size, at } of files) {
        const view = this.buffer.subarray(at, at + size);
        let read = 0;
        while (read < size) {
          const { bytesRead } = await file.read(view, read, size - read, read);
          if (bytesRead === 0) throw withPath(new Error(`spill ended after ${read} of ${size} bytes`), path);
          read += bytesRead;
        }
        tables.push(tableFromIPC(view));
      }
      return tables;
    } finally {
      await Promise.all(files.map((f) => f.file.close()));
      this.busy = false;
    }
  }
}
