// Preloaded into the CLI by a test (NODE_OPTIONS=--import=...): Node emits one process warning, and
// a library prints one line to the console as ioredis does, when the first HTTP request is made, so
// the run is under way and its notices are set up.
import diagnostics from 'node:diagnostics_channel';

let warned = false;
diagnostics.subscribe('undici:request:create', () => {
  if (warned) return;
  warned = true;
  process.emitWarning('a warning of the test', { type: 'TestWarning', code: 'QL_TEST_WARNING' });
  console.warn('[WARN] a library line of the test:', 42);
});
