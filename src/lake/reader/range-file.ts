/**
 * A lake file read by byte ranges: footer readers ask for the tail and whatever the footer points
 * at, never the whole file. Shaped as hyparquet's AsyncBuffer; Arrow's reader gets the same bytes
 * through arrowHandle (arrow-footer.ts).
 *
 * Any backend: the size once (`size`), the last 8 KiB once (`readRange`), then one `readRange` per
 * slice before them, so a Parquet footer costs a HEAD and one ranged GET on S3. A key the backend maps to a local file (`localPath`) is read
 * through one open descriptor instead, with synchronous calls on purpose: a footer read is a few
 * KiB from the page cache, and measured on a 3,000-file lake, four thread-pool round trips per file
 * (open, fstat, read, close) cost three times the CPU of the system calls themselves. Each open
 * yields to the event loop once, so timers (a progress bar) still run between files.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { LakeObjectMissingError } from '../../core/errors.js';
import type { LakeStorage } from '../storage/lake-storage.js';

export interface RangeFile {
  readonly byteLength: number;
  /** Bytes [start, end) as a fresh ArrayBuffer (end defaults to the file's length). */
  slice(start: number, end?: number): Promise<ArrayBuffer>;
  close(): Promise<void>;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function cutShort(at: number, size: number, where: string): Error {
  return new Error(`unexpected end of ${where} at byte ${at} of ${size}`);
}

function localRangeFile(path: string): RangeFile {
  const fd = openSync(path, 'r');
  let closed = false;
  try {
    const size = fstatSync(fd).size;
    return {
      byteLength: size,
      slice(start, end = size) {
        const from = Math.max(0, start);
        const length = Math.max(0, Math.min(end, size) - from);
        const buffer = new ArrayBuffer(length);
        let done = 0;
        // A short read is legal for read(2): loop until the range is filled or the file ends.
        while (done < length) {
          const n = readSync(fd, new Uint8Array(buffer, done), 0, length - done, from + done);
          if (n === 0) return Promise.reject(cutShort(from + done, size, 'file'));
          done += n;
        }
        return Promise.resolve(buffer);
      },
      close() {
        if (!closed) closeSync(fd);
        closed = true;
        return Promise.resolve();
      },
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The last bytes of an object, fetched once and kept: a footer is read in several small pieces
 * (Arrow: the trailing magic and length, then the footer; a file this small, its head too), each
 * a request on an object store. The size of hyparquet's first footer read (parquet-footer.ts), so
 * a Parquet footer stays one ranged GET.
 */
const TAIL_BYTES = 8 * 1024;

async function storageRangeFile(storage: LakeStorage, key: string): Promise<RangeFile> {
  const size = await storage.size(key);
  if (size === undefined) throw new LakeObjectMissingError(storage.root, key);
  const tailFrom = Math.max(0, size - TAIL_BYTES);
  let tail: Promise<Uint8Array> | undefined;
  const read = async (from: number, length: number): Promise<Uint8Array> => {
    const inTail = from >= tailFrom;
    const bytes = inTail ? (await (tail ??= storage.readRange(key, tailFrom, size - tailFrom))).subarray(from - tailFrom, from - tailFrom + length) : await storage.readRange(key, from, length);
    // The object shrank or was replaced since its size was read: never hand on a short range.
    if (bytes.byteLength < length) throw cutShort(from + bytes.byteLength, size, 'object');
    return bytes;
  };
  return {
    byteLength: size,
    async slice(start, end = size) {
      const from = Math.max(0, start);
      const length = Math.max(0, Math.min(end, size) - from);
      const bytes = await read(from, length);
      // A fresh ArrayBuffer of exactly the range (a Buffer may be a view into a shared pool).
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + length) as ArrayBuffer;
    },
    close: () => Promise.resolve(),
  };
}

export async function openRangeFile(storage: LakeStorage, key: string): Promise<RangeFile> {
  const path = storage.localPath(key);
  if (path === undefined) return storageRangeFile(storage, key);
  await yieldToLoop();
  try {
    return localRangeFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new LakeObjectMissingError(storage.root, key);
    throw error;
  }
}

/** Open, use, close: the descriptor never outlives the call, whatever happens inside. */
export async function withRangeFile<T>(storage: LakeStorage, key: string, use: (file: RangeFile) => Promise<T>): Promise<T> {
  const file = await openRangeFile(storage, key);
  try {
    return await use(file);
  } finally {
    await file.close();
  }
}
