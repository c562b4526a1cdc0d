/**
 * Process-wide settings the command line makes before anything else of quotelake loads (bin.ts
 * and main.ts import this first). Only the CLI may tune the whole process; a library user opts in by calling
 * the same function (exported from the package).
 */
import { optimizeWasmCompilation } from '../lake/parquet/optimized-wasm.js';
import { limitHeapGrowth } from './heap-growth.js';
import { wantsDebug } from './wants-debug.js';

// Before the Parquet codec's WebAssembly compiles (zstd compiles when its module is imported).
optimizeWasmCompilation();

// Before the run allocates: the heap's growth rule applies from the first full collection.
limitHeapGrowth();

// A debug run's stack traces name quotelake's source files and lines instead of the CLI bundle's
// chunks (scripts/bundle-cli.mjs). Only then: reading every chunk's source map as it loads costs
// about 0.15 CPU-s and 30 MB. bin.ts loads the command line after this line, so all of it is mapped.
if (wantsDebug(process.argv)) process.setSourceMapsEnabled(true);

// A file-size limit (`ulimit -f`, systemd LimitFSIZE) would otherwise kill the process by SIGXFSZ
// at the write that crosses it (exit 153, no summary, staging left behind): ignored, that write
// fails with EFBIG, which the run reports as any full disk (QL_DISK_FULL, exit 1).
process.on('SIGXFSZ', () => undefined);
