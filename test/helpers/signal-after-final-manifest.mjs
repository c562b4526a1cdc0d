// Preloaded into the CLI by a test (NODE_OPTIONS=--import=...): the process sends itself SIGTERM
// right after a run's final manifest (status "succeeded") is renamed into place, i.e. after the run
// delivered and committed everything, before the command has reported it. Which run's manifest
// triggers it: the Nth succeeded one (QUOTELAKE_TEST_SIGNAL_AFTER_RUN, default 1).
import fs, { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const nth = Number(process.env.QUOTELAKE_TEST_SIGNAL_AFTER_RUN ?? '1');
let succeeded = 0;
const rename = fs.promises.rename;
fs.promises.rename = async function renameThenSignal(from, to) {
  await rename.call(this, from, to);
  if (!/[\\/]runs[\\/][^\\/]+\.json$/.test(String(to))) return;
  if (!/"status": "succeeded"/.test(readFileSync(to, 'utf8'))) return;
  succeeded += 1;
  if (succeeded === nth) process.kill(process.pid, 'SIGTERM');
};
// The CLI's modules import `rename` by name: give them this one.
syncBuiltinESMExports();
