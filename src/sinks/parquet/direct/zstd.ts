/**
 * ZSTD compression of Parquet pages (zstd's own C library compiled to WebAssembly). Loaded once
 * per thread when the module is first imported.
 */
import '../optimized-wasm.js'; // before the WebAssembly compiles: see there
import { Zstd } from '@hpcc-js/wasm-zstd';

const zstd = await Zstd.load();

/** Level 1: what parquet-rs uses by default; the pages are highly repetitive, so ratios stay high. */
export const ZSTD_LEVEL = 1;

/** A fresh buffer (not a view of WebAssembly memory). */
export function zstdCompress(bytes: Uint8Array): Uint8Array {
  return zstd.compress(bytes, ZSTD_LEVEL);
}
