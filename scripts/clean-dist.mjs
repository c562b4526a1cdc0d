/**
 * Empties dist/ before a build (`npm run build`, and so `npm pack` and `npm publish` through
 * `prepare`). tsc writes a module for each source file but never deletes one: a source file removed
 * or renamed left its old .js, .d.ts and .map in dist/, and a package packed from that working copy
 * shipped modules whose source no longer exists.
 *
 * `node scripts/clean-dist.mjs [root]`: the package root, by default the one this script is in.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] === undefined ? fileURLToPath(new URL('../', import.meta.url)) : resolve(process.argv[2]);
rmSync(join(root, 'dist'), { recursive: true, force: true });
