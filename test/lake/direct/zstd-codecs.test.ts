/**
 * The two zstd codecs of the Parquet writer and reader: the native addon and the WebAssembly build
 * each read what the other wrote, byte for byte, on random bytes and on Parquet-like pages; the
 * setting QUOTELAKE_ZSTD is read strictly; the native codec is the default where it is prebuilt.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zstdCodecAsked } from '../../../src/lake/parquet/direct/zstd-codec.js';
import { loadNativeZstd } from '../../../src/lake/parquet/direct/zstd-native.js';
import { wasmZstd } from '../../../src/lake/parquet/direct/zstd-wasm.js';
import { chooseZstdCodec, ZSTD_LEVEL, zstdCodec, zstdCompress, zstdDecompress } from '../../../src/lake/parquet/direct/zstd.js';

/** Where @toondepauw/node-zstd ships a prebuilt addon (its package.json `napi.targets`). */
const PREBUILT = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];
const native = loadNativeZstd();
const prebuiltHere = PREBUILT.includes(`${process.platform}-${process.arch}`);

/** A FIXED_LEN_BYTE_ARRAY(16) page of a random walk of prices at scale 18, as the writer lays it out. */
function decimalPage(seed: number, rows: number): Uint8Array {
  const out = new Uint8Array(rows * 16);
  const view = new DataView(out.buffer);
  let price = 4_321_012n + BigInt(seed);
  let state = seed >>> 0;
  for (let i = 0; i < rows; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    price += BigInt((state % 21) - 10);
    const v = BigInt.asUintN(128, price * 10n ** 16n);
    view.setBigUint64(i * 16, v >> 64n);
    view.setBigUint64(i * 16 + 8, BigInt.asUintN(64, v));
  }
  return out;
}

describe('zstd codecs', () => {
  it('the native codec loads and is the default where it is prebuilt', async () => {
    if (!prebuiltHere) return; // elsewhere the WebAssembly codec serves (asserted below)
    expect(native?.name).toBe('native');
    expect(zstdCodec.name).toBe('native');
    expect((await chooseZstdCodec(undefined)).name).toBe('native');
  });

  it('QUOTELAKE_ZSTD=wasm chooses WebAssembly; native where it does not load is an error', async () => {
    expect((await chooseZstdCodec('wasm')).name).toBe('wasm');
    if (native === undefined) await expect(chooseZstdCodec('native')).rejects.toThrow(/QUOTELAKE_ZSTD=native.*does not load/);
    else expect((await chooseZstdCodec('native')).name).toBe('native');
  });

  it('reads QUOTELAKE_ZSTD strictly', () => {
    expect(zstdCodecAsked(undefined)).toBeUndefined();
    expect(zstdCodecAsked('')).toBeUndefined();
    expect(zstdCodecAsked(' WASM ')).toBe('wasm');
    expect(zstdCodecAsked('native')).toBe('native');
    expect(() => zstdCodecAsked('zlib')).toThrow('QUOTELAKE_ZSTD must be native or wasm, not "zlib"');
    // A library program meets it when it imports quotelake: a ConfigError with its code and hint.
    expect(() => zstdCodecAsked('zlib')).toThrow(expect.objectContaining({ code: 'QL_CONFIG', hint: expect.stringContaining('unset QUOTELAKE_ZSTD') }));
  });

  const codecs = [wasmZstd, ...(native ? [native] : [])];
  const roundTrips = (bytes: Uint8Array) => {
    for (const writer of codecs) {
      const frame = writer.compress(bytes, ZSTD_LEVEL);
      for (const reader of codecs) expect(Buffer.from(reader.decompress(frame, bytes.length)).equals(Buffer.from(bytes)), `${writer.name} → ${reader.name}`).toBe(true);
    }
  };

  it('each codec reads what either wrote: random bytes, empty and one byte', () => {
    roundTrips(new Uint8Array(0));
    roundTrips(new Uint8Array([7]));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => roundTrips(bytes)), { seed: 20261128, numRuns: 60 });
  });

  it('each codec reads what either wrote: Parquet-like decimal pages (repetitive, up to 1 MB)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 1, max: 65_536 }), (seed, rows) => roundTrips(decimalPage(seed, rows))), { seed: 20261128, numRuns: 25 });
  });

  it('a page that does not decompress to the length its header states is an error', () => {
    const page = decimalPage(7, 1_000);
    const frame = zstdCompress(page);
    expect(Buffer.from(zstdDecompress(frame, page.length)).equals(Buffer.from(page))).toBe(true);
    expect(() => zstdDecompress(frame, page.length + 1)).toThrow(`parquet: a ZSTD page decompressed to ${page.length} bytes where its header says ${page.length + 1}`);
  });

  it('both compress a decimal page to about the same size (both zstd 1.5 at the same level)', () => {
    if (native === undefined) return;
    const page = decimalPage(1, 20_000);
    const wasmSize = wasmZstd.compress(page, ZSTD_LEVEL).length;
    const nativeSize = native.compress(page, ZSTD_LEVEL).length;
    expect(nativeSize).toBeLessThan(page.length / 3);
    expect(Math.abs(nativeSize - wasmSize) / wasmSize).toBeLessThan(0.1);
  });
});
