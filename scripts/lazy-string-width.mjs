/**
 * An esbuild plugin for scripts/bundle-cli.mjs: string-width (which yargs and its help layout load
 * with the command line) builds an Intl.Segmenter and Unicode-property regular expressions at the
 * top of its module. Made there, they cost every command, `--version`, every usage error and every
 * Tab of completion about 40 ms of CPU (ICU's segmentation data, the RGI_Emoji set), although only
 * help text and wrapped messages ever measure a string. Bundled, each is made on its first use.
 *
 * Each top-level `const name = <expensive value>;` becomes a function that makes the value once, and
 * every other use of `name` in the file calls it. Should string-width stop declaring a Segmenter
 * that way, the build fails here rather than quietly go back to paying for it at start-up.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const STRING_WIDTH = /[\\/]node_modules[\\/]string-width[\\/]index\.js$/;

/** A top-level constant worth deferring: a Segmenter, or a regular expression with a Unicode property escape. */
const EXPENSIVE_CONSTANT = /^const ([A-Za-z_$][\w$]*) = (new Intl\.Segmenter\(\)|\/.*\\p\{.*\/[a-z]*);$/gm;

/** `source` with each expensive top-level constant made on first use; throws if it has no Segmenter to defer. */
export function deferExpensiveConstants(source, path) {
  const names = [];
  let text = source.replace(EXPENSIVE_CONSTANT, (_line, name, value) => {
    names.push(name);
    return `let ${name}Made;\nconst ${name}Lazy = () => (${name}Made ??= ${value});`;
  });
  if (!/new Intl\.Segmenter\(\)\);$/m.test(text)) throw new Error(`${path} no longer declares \`const segmenter = new Intl.Segmenter();\`, which scripts/lazy-string-width.mjs defers`);
  for (const name of names) {
    // Every use of the name, not a property of the same name (`.name`) nor the declarations above.
    text = text.replace(new RegExp(`(?<![.\\w$])${name}(?![\\w$])`, 'g'), `${name}Lazy()`);
  }
  return text;
}

export const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(plugin) {
    plugin.onLoad({ filter: STRING_WIDTH }, (args) => {
      const contents = deferExpensiveConstants(readFileSync(args.path, 'utf8'), args.path);
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};
