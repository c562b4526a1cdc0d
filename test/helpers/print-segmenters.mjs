// Preloaded into the CLI by a test (NODE_OPTIONS=--import=...): each Intl.Segmenter the process
// makes, and each regular expression with a Unicode property escape, is written to stderr as
// `made segmenter` or `made property regexp`: what string-width built at start-up.
import fs from 'node:fs';

const Segmenter = Intl.Segmenter;
Intl.Segmenter = class PrintedSegmenter extends Segmenter {
  constructor(...args) {
    super(...args);
    fs.writeSync(2, 'made segmenter\n');
  }
};
const NativeRegExp = RegExp;
globalThis.RegExp = new Proxy(NativeRegExp, {
  construct(target, args, newTarget) {
    if (String(args[0]).includes('\\p{')) fs.writeSync(2, 'made property regexp\n');
    return Reflect.construct(target, args, newTarget);
  },
});
