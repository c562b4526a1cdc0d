/**
 * A local file read by byte ranges through one open handle: footer readers ask for the tail and
 * whatever the footer points at, never the whole file. Shaped as hyparquet's AsyncBuffer.
 */
import { open, type FileHandle } from 'node:fs/promises';

export interface RangeFile {
  readonly byteLength: number;
  /** Bytes [start, end) as a fresh ArrayBuffer (end defaults to the file's length). */
  slice(start: number, end?: number): Promise<ArrayBuffer>;
  close(): Promise<void>;
}

export async function openRangeFile(path: string): Promise<RangeFile> {
  const handle: FileHandle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return {
      byteLength: size,
      async slice(start, end = size) {
        const from = Math.max(0, start);
        const length = Math.max(0, Math.min(end, size) - from);
        const buffer = new ArrayBuffer(length);
        let done = 0;
        // A short read is legal for read(2): loop until the range is filled or the file ends.
        while (done < length) {
          const { bytesRead } = await handle.read(new Uint8Array(buffer, done), 0, length - done, from + done);
          if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${from + done} of ${size}`);
          done += bytesRead;
        }
        return buffer;
      },
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Open, use, close: the handle never outlives the call, whatever happens inside. */
export async function withRangeFile<T>(path: string, use: (file: RangeFile) => Promise<T>): Promise<T> {
  const file = await openRangeFile(path);
  try {
    return await use(file);
  } finally {
    await file.close();
  }
}
