/**
 * Bundles the built command line (dist/cli/bin.js and what it loads, from tsc) into dist/cli/quotelake.js, the
 * `quotelake` the package installs, and the Parquet encode worker into dist/cli/encode-worker.js.
 *
 * Why: Node loads an ES module graph file by file (resolve, stat, read, compile, link). `quotelake
 * run` loaded about 640 modules, ours and its packages', and spent about 0.43 CPU-s on that before
 * its first request; bundled, the same code loads in about 0.17 (measured on Node 20). Commands
 * still load what they use when they run (each dynamic import is a chunk of its own).
 *
 * Every output sits in dist/cli/, one folder below the package root like every compiled module, so
 * what a module finds relative to itself (package.json, pipelines/, the encode worker) is where it
 * was. Packages that read files beside their own code, or load only with a command that needs them
 * (S3, metrics, the WebAssembly codecs, pretty logs), stay outside the bundle and load from
 * node_modules as before. The queue's (BullMQ, ioredis) are bundled into the queue commands' own
 * chunks: from node_modules they were about 300 CommonJS and ES files, resolved and read one by one,
 * 0.15 CPU-s of each `queue`, `enqueue` and `worker` (BullMQ inlines its Lua scripts; only msgpackr's
 * optional native addon stays outside). The tsc output stays in dist/ for the library (`dist/index.js`).
 *
 * Writes dist/cli/quotelake.meta.json (esbuild's metafile): which inputs went into which output,
 * for the start-up test. It is left out of the package (`files` in package.json). And writes
 * dist/cli/build-id.txt, the build id of the files it wrote, which the bundle reads rather than
 * hash them at each run (src/lake/build-id.ts).
 */
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { lazyStringWidth } from './lazy-string-width.mjs';
import { codeHash, RECORDED_BUILD_ID_FILE } from '../dist/lake/build-id.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = join(root, 'dist/cli');

/**
 * Loaded from node_modules, not bundled: they read files beside their code, load a native addon
 * (msgpackr-extract, BullMQ's optional fast path), or are heavy and only some commands load them.
 */
const EXTERNAL = [
  '@aws-sdk/*',
  '@smithy/*',
  '@bokuweb/zstd-wasm',
  '@toondepauw/node-zstd',
  'parquet-wasm',
  'msgpackr-extract',
  'pino-pretty',
  'prom-client',
];

/**
 * yargs guesses its own version as it starts (before ours replaces it) by looking for package.json
 * upwards from the folder its code sits in, which it finds as the part of its path before
 * `node_modules`. Bundled, its path has no `node_modules`, so it looked from the current folder
 * up, listing every folder on the way to the first with a package.json (else to `/`): each
 * command, `--version` and every Tab of completion did (50 ms under a /tmp of 56,000 entries, far
 * more on a network file system). Bundled, it looks in the package root, two folders above the
 * chunk, where package.json is. Should yargs change that line, the build fails here rather than
 * start listing folders again.
 */
const YARGS_SHIM = /yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/;
const YARGS_MAIN_FILENAME = "const mainFilename = __dirname.substring(0, __dirname.lastIndexOf('node_modules'));";
const yargsLooksInPackageRoot = {
  name: 'yargs-looks-in-package-root',
  setup(plugin) {
    plugin.onLoad({ filter: YARGS_SHIM }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(YARGS_MAIN_FILENAME)) throw new Error(`${args.path} no longer has the line scripts/bundle-cli.mjs replaces: ${YARGS_MAIN_FILENAME}`);
      const contents = text.replace(YARGS_MAIN_FILENAME, "const mainFilename = fileURLToPath(new URL('../../', import.meta.url));");
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

// Chunks of an earlier bundle: their names change with their content.
for (const name of readdirSync(outdir)) if (name.startsWith('chunk-')) rmSync(join(outdir, name));

const result = await build({
  entryPoints: { quotelake: join(outdir, 'bin.js'), 'encode-worker': join(root, 'dist/lake/parquet/encode-worker.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  chunkNames: 'chunk-[hash]',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [yargsLooksInPackageRoot, lazyStringWidth],
  // Bundled CommonJS packages (undici, yaml, yargs' helpers...) call require(): give them Node's.
  banner: { js: "import { createRequire as quotelakeCreateRequire } from 'node:module'; const require = quotelakeCreateRequire(import.meta.url);" },
});
writeFileSync(join(outdir, 'quotelake.meta.json'), JSON.stringify(result.metafile));
chmodSync(join(outdir, 'quotelake.js'), 0o755);
// The build id of what is now in dist/cli/, recorded for the bundle to read (src/lake/build-id.ts).
writeFileSync(join(outdir, RECORDED_BUILD_ID_FILE), `${codeHash(outdir, '.js', false)}\n`);
