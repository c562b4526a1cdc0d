/**
 * The encode worker's start-up (imported first by encode-worker.ts, and by nothing else): the
 * thread is ours, so it opts into optimised WebAssembly before the codec's modules load (zstd
 * compiles when its module is imported). Static imports evaluate in order, so this runs first.
 * Measured: loading the codec with dynamic imports after the call instead cost the worker about a
 * tenth more CPU per row.
 */
import { optimizeWasmCompilation } from './optimized-wasm.js';

optimizeWasmCompilation();
