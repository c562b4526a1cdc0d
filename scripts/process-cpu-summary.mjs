/**
 * Sums the lines scripts/process-cpu-log.cjs wrote: processes and CPU-seconds per script (per
 * command for the CLI), most CPU first.
 * Usage: node scripts/process-cpu-summary.mjs <log file>
 */
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: node scripts/process-cpu-summary.mjs <log file>\n');
  process.exit(2);
}
const groups = new Map();
let total = 0;
let processes = 0;
for (const text of readFileSync(file, 'utf8').split('\n')) {
  if (text.trim() === '') continue;
  const line = JSON.parse(text);
  const key = line.command !== undefined ? `quotelake ${line.command}` : line.script || '(node -e)';
  const group = groups.get(key) ?? { processes: 0, cpuSeconds: 0 };
  group.processes += 1;
  group.cpuSeconds += line.cpuSeconds;
  groups.set(key, group);
  total += line.cpuSeconds;
  processes += 1;
}
// Piped into `head`, the reader may close early: stop quietly then, as a Unix filter does.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const rows = [...groups].sort((a, b) => b[1].cpuSeconds - a[1].cpuSeconds);
process.stdout.write(`${processes} processes, ${total.toFixed(0)} CPU-s\n`);
process.stdout.write(`${'CPU-s'.padStart(8)} ${'procs'.padStart(6)} ${'each'.padStart(6)}  script or command\n`);
for (const [key, g] of rows) {
  process.stdout.write(`${g.cpuSeconds.toFixed(1).padStart(8)} ${String(g.processes).padStart(6)} ${(g.cpuSeconds / g.processes).toFixed(2).padStart(6)}  ${key}\n`);
}
