/**
 * Stdout on a file (`> export.ndjson`, `schema > s.json`) is Node's SyncWriteStream, which writes
 * each chunk with one writeSync and drops what a short write left: a disk that fills, or a
 * file-size limit (`ulimit -f`) reached, in the middle of a chunk cut the output with exit 0.
 * Writing the rest makes the next writeSync fail (ENOSPC, EFBIG), which stdout-failure.ts reports.
 */
import { fstatSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';

type WriteMethod = (chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void) => void;

export function writeStdoutWhole(stream: Writable & { fd?: number } = process.stdout): void {
  const fd = stream.fd;
  if (typeof fd !== 'number' || !isRegularFile(fd)) return;
  const write: WriteMethod = (chunk, _encoding, callback) => {
    try {
      for (let done = 0; done < chunk.length; ) done += writeSync(fd, chunk, done, chunk.length - done);
    } catch (e) {
      callback(e as Error);
      return;
    }
    callback();
  };
  (stream as unknown as { _write: WriteMethod })._write = write;
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}
