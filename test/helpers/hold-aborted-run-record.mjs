// Preloaded into the CLI by a test (NODE_OPTIONS=--import=...): a stop that takes its time. The
// run record saying "interrupted" is renamed into place 20 s late (a wait on a timer, not a thread
// stuck in the file system), after a line on stderr, so that a second signal meets a stop under way.
import fs, { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const rename = fs.promises.rename;
fs.promises.rename = async function renameLate(from, to) {
  if (/[\\/]runs[\\/][^\\/]+\.json$/.test(String(to)) && /"status": "aborted"/.test(readFileSync(from, 'utf8'))) {
    process.stderr.write('test: holding the aborted run record\n');
    await new Promise((resolve) => setTimeout(resolve, 20_000));
  }
  return rename.call(this, from, to);
};
// The CLI's modules import `rename` by name: give them this one.
syncBuiltinESMExports();
