/**
 * zstd's own C library compiled to WebAssembly: the codec that runs wherever Node does. Compiled
 * once per thread when this module is first imported.
 */
import { compress, decompress, init } from '@bokuweb/zstd-wasm';
import type { ZstdCodec } from './zstd-codec.js';

await init();

export const wasmZstd: ZstdCodec = {
  name: 'wasm',
  // A fresh buffer: a copy out of WebAssembly memory, which the next call reuses.
  compress: (bytes, level) => compress(bytes, level),
  decompress: (bytes, size) => decompress(bytes, { defaultHeapSize: size }),
};
