/**
 * An opt-in for the whole process, called before any WebAssembly module of the Parquet codec
 * compiles (parquet-wasm, zstd): V8 then compiles each WebAssembly function with its optimising
 * compiler on first use, instead of running baseline code until dynamic tier-up catches up.
 * parquet-wasm encoding runs about a third slower on baseline code, and tier-up of that large
 * module takes several seconds of encoding, about the length of a whole run. Compilation stays
 * lazy, so start-up is as quick as before.
 *
 * A V8 flag holds for every isolate of the process, so importing the codec never sets it: the CLI
 * calls this at start-up, the encode workers (our own threads) at theirs, and a library user may
 * call it (it is exported) when the whole process is theirs to tune.
 */
import { setFlagsFromString } from 'node:v8';

let done = false;

/** Sets V8's `--no-wasm-dynamic-tiering` once; modules compiled before the call are unaffected. */
export function optimizeWasmCompilation(): void {
  if (done) return;
  done = true;
  setFlagsFromString('--no-wasm-dynamic-tiering');
}
