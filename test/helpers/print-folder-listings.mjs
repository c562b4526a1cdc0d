// Preloaded into the CLI by a test (NODE_OPTIONS=--import=...): every folder the process lists
// through fs.readdirSync (what yargs uses) is written to stderr as `listed <path>`.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const list = fs.readdirSync;
fs.readdirSync = function listThenPrint(path, ...rest) {
  fs.writeSync(2, `listed ${path}\n`);
  return list.call(this, path, ...rest);
};
// The CLI's modules import `readdirSync` by name: give them this one.
syncBuiltinESMExports();
