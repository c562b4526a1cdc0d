/**
 * ZSTD compression of Parquet pages (zstd's own C library compiled to WebAssembly). Loaded once
 * per thread when the module is first imported.
 */
import { compress, decompress, init } from '@bokuweb/zstd-wasm';

await init();

/** Level 1: what parquet-rs uses by default; the pages are highly repetitive, so ratios stay high. */
export const ZSTD_LEVEL = 1;

/** A fresh buffer (a copy out of WebAssembly memory, which the next call reuses). */
export function zstdCompress(bytes: Uint8Array): Uint8Array {
  return compress(bytes, ZSTD_LEVEL);
}

/** Pages of `size` bytes once decompressed (the page header says so), for readers of our files. */
export function zstdDecompress(bytes: Uint8Array, size: number): Uint8Array {
  return decompress(bytes, { defaultHeapSize: size });
}
