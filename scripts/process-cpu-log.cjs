/**
 * Where the test suite's CPU goes, process by process: preloaded into every Node process of a run
 * (NODE_OPTIONS="--require <absolute path of this file>", which child processes inherit), it
 * appends one JSON line per process at its exit to the file PROCESS_CPU_LOG names (not a
 * QUOTELAKE_ variable: the end-to-end tests clear those for the CLI they start): the
 * script and, for the CLI, the command word, with the CPU-seconds (user + system, worker threads
 * included) and peak RSS of the process. Never the rest of the command line: it may hold a token.
 * A process killed by a signal it does not handle writes no line. Summed by
 * scripts/process-cpu-summary.mjs; see "Development" in the README.
 */
'use strict';
const { appendFileSync } = require('node:fs');
const { basename } = require('node:path');
const { isMainThread } = require('node:worker_threads');

const log = process.env.PROCESS_CPU_LOG;
if (isMainThread && log) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const script = basename(process.argv[1] ?? '');
    // The CLI's command word only, and only when it is a plain word (a mistyped token is not one).
    const word = process.argv[2];
    const command = script === 'quotelake.js' && word !== undefined && /^-{0,2}[a-z][a-z-]{0,30}$/.test(word) ? word : undefined;
    const line = { script, ...(command !== undefined ? { command } : {}), cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssKb: process.resourceUsage().maxRSS };
    try {
      appendFileSync(log, `${JSON.stringify(line)}\n`);
    } catch {
      // A measurement aid never changes how the process ends.
    }
  });
}
