#!/usr/bin/env node
/**
 * The `quotelake` command (bundled as dist/cli/quotelake.js by scripts/bundle-cli.mjs). Process-wide
 * settings come first, then the command line itself through a dynamic import: Node reads a source
 * map when it loads a module, so a debug run's stack traces name source files and lines only for
 * what loads after start-up.ts has turned maps on, which is then all of quotelake.
 */
import './start-up.js';

await import('./main.js');
