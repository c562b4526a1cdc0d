#!/usr/bin/env node
/**
 * The `quotelake` command (bundled as dist/cli/quotelake.js by scripts/bundle-cli.mjs). Process-wide
 * settings come first, then the command line itself through a dynamic import: Node reads a source
 * map when it loads a module, so a debug run's stack traces name source files and lines only for
 * what loads after start-up.ts has turned maps on, which is then all of quotelake.
 */
import { codeLoadFailureJsonLine, codeLoadFailureLine } from './code-load-failure.js';
import { wantsJsonLogs } from './wants-json-logs.js';

try {
  // First of all: a stop while the rest loads is said and exits 130, not a silent death by the
  // signal. Loaded here, not statically: under an open-file limit too low for quotelake, each file
  // opened before this `try` is one Node itself would fail on, with its stack instead of our line.
  (await import('./early-stop.js')).stopEarlyOnSignal();
  // Both imported here rather than statically, so that a file of either that cannot be opened is caught below.
  await import('./start-up.js');
  await import('./main.js');
} catch (e) {
  // Only loading can fail here (main.ts reports every error of the command itself); an open-file
  // limit too low for the bundle's files is the environment's, not a defect: one line, exit 2 (EXIT_USAGE).
  const line = codeLoadFailureLine(e, true);
  if (line === undefined) throw e;
  // --log-format json (or QUOTELAKE_LOG_FORMAT=json): a JSON line, as every other failure before a run is.
  const json = wantsJsonLogs(process.argv.slice(2), process.env) ? codeLoadFailureJsonLine(e, new Date()) : undefined;
  process.stderr.write(json !== undefined ? `${json}\n` : `quotelake: ${line}\n`);
  process.exitCode = 2;
}
