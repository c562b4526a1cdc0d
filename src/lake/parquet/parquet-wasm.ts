/**
 * parquet-wasm, loaded on first use. K-line and trade files are written without it (direct/), so a
 * process that only writes them (every encode worker of such a pipeline) never compiles its
 * WebAssembly nor holds its memory; reading a file back (merge, compaction) or writing depth and
 * halt loads it. Its Node build is CommonJS that compiles the module synchronously, so a
 * synchronous require keeps encode() and decode() synchronous.
 */
import { createRequire } from 'node:module';

type ParquetWasm = typeof import('parquet-wasm');

let loaded: ParquetWasm | undefined;

export function parquetWasm(): ParquetWasm {
  return (loaded ??= createRequire(import.meta.url)('parquet-wasm') as ParquetWasm);
}
