/**
 * Process-wide settings the command line makes before anything else of quotelake loads (main.ts
 * imports this first). Only the CLI may tune the whole process; a library user opts in by calling
 * the same function (exported from the package).
 */
import { optimizeWasmCompilation } from '../lake/parquet/optimized-wasm.js';
import { limitHeapGrowth } from './heap-growth.js';

// Before the Parquet codec's WebAssembly compiles (zstd compiles when its module is imported).
optimizeWasmCompilation();

// Before the run allocates: the heap's growth rule applies from the first full collection.
limitHeapGrowth();
