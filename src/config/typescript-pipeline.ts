/**
 * What to say of a TypeScript pipeline a Node without type stripping cannot load (Node 20): the
 * command line refuses it before loading, a library caller of loadPipeline meets it when the import
 * fails; both give these words.
 */
import { extname } from 'node:path';

/** The refusal of pipeline `display` (its message does not name it: the caller puts it first). */
export function typeScriptRefusal(display: string, version: string = process.version): { message: string; hint: string } {
  const ext = extname(display).toLowerCase();
  const compiled = `${display.slice(0, -ext.length)}${ext === '.mts' ? '.mjs' : '.js'}`;
  return {
    message:
      `Node ${version} cannot load a TypeScript pipeline (it has no type stripping): run on Node 22.18 or later (or 23.6+), ` +
      `or compile it first (npx tsc --module esnext --moduleResolution bundler --target es2022 ${display}) and pass ${compiled}, or write it as .yaml`,
    hint: 'README, "TypeScript pipelines"; on Node 22.6 to 22.17, NODE_OPTIONS=--experimental-strip-types loads it too',
  };
}
