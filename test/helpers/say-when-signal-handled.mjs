// Preloaded into the CLI by a test (NODE_OPTIONS=--import=...): one line on stderr when the process
// first listens for SIGTERM, so a test signals it once it can handle one, whatever the machine's
// load makes of Node's start-up. Listeners are added as they would be.
const on = process.on;
let said = false;
process.on = process.addListener = function sayFirstSigterm(event, listener) {
  const result = on.call(this, event, listener);
  if (event === 'SIGTERM' && !said) {
    said = true;
    process.stderr.write('listening for SIGTERM\n');
  }
  return result;
};
