/**
 * Deletes from dist/ what tsc wrote for a source file that no longer exists (run after tsc, before
 * the bundle: `npm run build`, and so `npm pack` and `npm publish` through `prepare`). tsc writes a
 * module for each source file but never deletes one: a source file removed or renamed left its old
 * .js, .d.ts and .map in dist/, and a package packed from that working copy shipped them.
 *
 * Only those files go: dist/ is never emptied, so a command started from this checkout while it
 * builds (a scheduled `npx quotelake`) still finds its modules. The bundle's own files
 * (dist/cli/quotelake.js, encode-worker.js, chunk-*, the metafile) are scripts/bundle-cli.mjs's.
 *
 * `node scripts/prune-dist.mjs [root]`: the package root, by default the one this script is in.
 */
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] === undefined ? fileURLToPath(new URL('../', import.meta.url)) : resolve(process.argv[2]);
const dist = join(root, 'dist');
const BUNDLE = /^cli\/(quotelake|encode-worker)\.(js|js\.map|meta\.json)$|^cli\/chunk-/;
const EMITTED = /\.(d\.ts|js\.map|js)$/;

/** Prunes one folder of dist/ (`rel` its path under dist/); true when it is left empty. */
function prune(rel) {
  let left = 0;
  for (const entry of readdirSync(join(dist, rel), { withFileTypes: true })) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (prune(path)) rmdirSync(join(dist, path));
      else left++;
    } else if (!BUNDLE.test(path) && EMITTED.test(path) && !existsSync(join(root, 'src', path.replace(EMITTED, '.ts')))) {
      rmSync(join(dist, path));
    } else left++;
  }
  return left === 0;
}

if (existsSync(dist)) prune('');
