// Preloaded into the CLI by a test (NODE_OPTIONS=--import=...): the process sends itself SIGTERM
// right after a run's final manifest (status "succeeded") is renamed into place, i.e. after the run
// delivered and committed everything, before the command has reported it. Only the first run's.
import fs, { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

let sent = false;
const rename = fs.promises.rename;
fs.promises.rename = async function renameThenSignal(from, to) {
  await rename.call(this, from, to);
  if (!/[\\/]runs[\\/][^\\/]+\.json$/.test(String(to))) return;
  if (!/"status": "succeeded"/.test(readFileSync(to, 'utf8'))) return;
  if (sent) return;
  sent = true;
  process.kill(process.pid, 'SIGTERM');
};
// The CLI's modules import `rename` by name: give them this one.
syncBuiltinESMExports();
