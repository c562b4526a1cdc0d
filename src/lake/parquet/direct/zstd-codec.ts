/** What the Parquet codec needs of a Zstandard implementation; both ours read each other's frames. */
import { ConfigError } from '../../../core/errors.js';

export interface ZstdCodec {
  readonly name: ZstdCodecName;
  /** One zstd frame of `bytes`, in a buffer of its own. */
  compress(bytes: Uint8Array, level: number): Uint8Array;
  /** `size`: the decompressed length the Parquet page header states (a hint; the frame decides). */
  decompress(bytes: Uint8Array, size: number): Uint8Array;
}

export type ZstdCodecName = 'native' | 'wasm';
export const ZSTD_CODEC_NAMES: readonly ZstdCodecName[] = ['native', 'wasm'];

/** The environment variable that chooses the codec (unset: native where it loads). */
export const ZSTD_ENV = 'QUOTELAKE_ZSTD';

/** The codec QUOTELAKE_ZSTD asks for: undefined when unset or empty; any other value throws. */
export function zstdCodecAsked(value: string | undefined): ZstdCodecName | undefined {
  const asked = value?.trim().toLowerCase();
  if (asked === undefined || asked === '') return undefined;
  // A ConfigError (code, hint): a library program that imports quotelake meets it at the import.
  if (!ZSTD_CODEC_NAMES.includes(asked as ZstdCodecName)) {
    throw new ConfigError(`${ZSTD_ENV} must be ${ZSTD_CODEC_NAMES.join(' or ')}, not "${value}"`, {}, undefined, `unset ${ZSTD_ENV} (native where it loads, else WebAssembly), or set it to native or wasm`);
  }
  return asked as ZstdCodecName;
}
