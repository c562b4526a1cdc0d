/**
 * Imported for its effect, before any WebAssembly module of the sink compiles (parquet-wasm, zstd):
 * V8 then compiles each WebAssembly function with its optimising compiler on first use, instead of
 * running baseline code until dynamic tier-up catches up. parquet-wasm encoding runs about a third
 * slower on baseline code, and tier-up of that large module takes several seconds of encoding,
 * about the length of a whole run. Compilation stays lazy, so start-up is as quick as before.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-wasm-dynamic-tiering');
