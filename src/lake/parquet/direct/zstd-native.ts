/**
 * The native Zstandard library (zstd 1.5, through @toondepauw/node-zstd: Node-API addons prebuilt
 * for Linux, macOS and Windows on x64 and arm64, no install script). An optional dependency: on a
 * platform it was not built for, or where it was left out, `loadNativeZstd` answers undefined and
 * the WebAssembly build serves instead. With it, the encode worker of a 5M-row backfill spent 2.2
 * CPU-s instead of 2.9-3.0 (README, "ZSTD, native where it can be").
 */
import { createRequire } from 'node:module';
import { ZSTD_ENV, type ZstdCodec } from './zstd-codec.js';

export const NATIVE_MISSING = `${ZSTD_ENV}=native, but the native zstd addon (@toondepauw/node-zstd, an optional dependency) does not load on this machine: install with optional dependencies, or unset ${ZSTD_ENV}`;

interface NativeModule {
  Encoder: new (level: number) => { encodeSync(data: Uint8Array): Uint8Array };
  Decoder: new () => { decodeSync(data: Uint8Array): Uint8Array };
}

/** Undefined when the addon is not installed or does not load on this platform. */
export function loadNativeZstd(): ZstdCodec | undefined {
  let native: NativeModule;
  try {
    native = createRequire(import.meta.url)('@toondepauw/node-zstd') as NativeModule;
  } catch {
    return undefined;
  }
  // One encoder object per level (it holds the level; the addon makes a zstd context per call).
  const encoders = new Map<number, { encodeSync(data: Uint8Array): Uint8Array }>();
  const decoder = new native.Decoder();
  return {
    name: 'native',
    compress(bytes, level) {
      let encoder = encoders.get(level);
      if (encoder === undefined) encoders.set(level, (encoder = new native.Encoder(level)));
      return encoder.encodeSync(bytes);
    },
    decompress: (bytes) => decoder.decodeSync(bytes),
  };
}
