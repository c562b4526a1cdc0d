/**
 * ZSTD compression of Parquet pages: the native library when it loads (zstd-native.ts), otherwise
 * zstd compiled to WebAssembly (zstd-wasm.ts). QUOTELAKE_ZSTD=wasm or native chooses; native asked
 * for and not loadable is an error, never a silent fallback. Chosen once per thread, when this
 * module is first imported.
 */
import { ZSTD_ENV, zstdCodecAsked, type ZstdCodec, type ZstdCodecName } from './zstd-codec.js';
import { loadNativeZstd, NATIVE_MISSING } from './zstd-native.js';

/**
 * Level -1, zstd's first fast level: on a backfill's pages (decimals as 16-byte big-endian words,
 * times, codes) it compresses as well as level 1, the default of parquet-rs (files 0.3% larger),
 * for about a fifth less CPU. Every reader decompresses frames of any level.
 */
export const ZSTD_LEVEL = -1;

export const zstdCodec: ZstdCodec = await chooseZstdCodec(zstdCodecAsked(process.env[ZSTD_ENV]));

/** The codec asked for, or (undefined) the native one where it loads, else WebAssembly. */
export async function chooseZstdCodec(asked: ZstdCodecName | undefined): Promise<ZstdCodec> {
  if (asked !== 'wasm') {
    const native = loadNativeZstd();
    if (native !== undefined) return native;
    if (asked === 'native') throw new Error(NATIVE_MISSING);
  }
  return (await import('./zstd-wasm.js')).wasmZstd;
}

export function zstdCompress(bytes: Uint8Array): Uint8Array {
  return zstdCodec.compress(bytes, ZSTD_LEVEL);
}

/**
 * Pages of `size` bytes once decompressed (the page header says so), for readers of our files. Any
 * other length is a damaged page: an error, never a page read short or long.
 */
export function zstdDecompress(bytes: Uint8Array, size: number): Uint8Array {
  const out = zstdCodec.decompress(bytes, size);
  if (out.length !== size) throw new Error(`parquet: a ZSTD page decompressed to ${out.length} bytes where its header says ${size}`);
  return out;
}
