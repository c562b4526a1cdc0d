/**
 * zstd's own C library compiled to WebAssembly: the codec that runs wherever Node does. Compiled
 * once per thread, when this module is first imported.
 */
import { compress, decompress, init } from '@bokuweb/zstd-wasm';
import type { ZstdCodec } from './zstd-codec.js';

const INIT_KEY = Symbol.for('quotelake.zstd-wasm.init');

/**
 * Compiles the WebAssembly module once per thread. The library's `init()` compiles it again on each
 * call and swaps the memory under any caller still holding it, so a second call (a module evaluated
 * twice in one thread, as a test runner that reuses its threads does) corrupts what the first one
 * compresses. Anything else in the thread that calls the library must come through here.
 */
export function initZstdWasmOnce(): Promise<void> {
  const holder = globalThis as { [INIT_KEY]?: Promise<void> };
  holder[INIT_KEY] ??= init();
  return holder[INIT_KEY];
}

await initZstdWasmOnce();

export const wasmZstd: ZstdCodec = {
  name: 'wasm',
  // A fresh buffer: a copy out of WebAssembly memory, which the next call reuses.
  compress: (bytes, level) => compress(bytes, level),
  decompress: (bytes, size) => decompress(bytes, { defaultHeapSize: size }),
};
