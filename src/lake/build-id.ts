/**
 * A short id of the code that runs: the first 12 hex digits of a sha256 over every module of the
 * package (path and content, sorted by path; `dist/**\/*.js` when the library's modules run,
 * `src/**\/*.ts` when run from the sources, as the tests do, and the files of `dist/cli/` when the
 * command line's bundle runs: scripts/bundle-cli.mjs puts all of it there). Same code, same id,
 * however it was obtained (a git clone, `npm ci`, a tarball): nothing is recorded at build time,
 * so nothing can go stale, and an edit not yet committed still changes it. Computed once per
 * thread, on first use.
 *
 * The bundle is the exception: scripts/bundle-cli.mjs, which writes every file of dist/cli/, hashes
 * them the same way as it finishes and records the id beside them (`build-id.txt`), so each run and
 * each encode worker reads one small file instead of about 250 (30-60 ms of CPU a thread). Should
 * that file be missing or not an id, the files are hashed as everywhere else.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = import.meta.url;
// This file is src/lake/build-id.ts or dist/lake/build-id.js: the code root is one level up.
// Anywhere else it is inside the bundle, whose files are all in the folder it is in.
const bundled = !/\/lake\/build-id\.[jt]s$/.test(here);
const codeRoot = fileURLToPath(new URL(bundled ? './' : '../', here));
const extension = here.endsWith('.ts') ? '.ts' : '.js';

/** The id of the modules ending in `ext` under `root` (see above; in it only, unless `recursive`); `unknown` when none can be read. */
export function codeHash(root: string, ext: string, recursive = true): string {
  try {
    const files = (readdirSync(root, { recursive }) as string[])
      .filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts'))
      .map((f) => f.split('\\').join('/'))
      .sort();
    if (files.length === 0) return 'unknown';
    const hash = createHash('sha256');
    for (const f of files) {
      const bytes = readFileSync(join(root, f));
      hash.update(`${f}\0`);
      // Line endings normalised: a checkout with CRLF is the same code.
      hash.update(bytes.includes(13) ? bytes.toString('utf8').replace(/\r\n/g, '\n') : bytes);
      hash.update('\0');
    }
    return hash.digest('hex').slice(0, 12);
  } catch {
    return 'unknown';
  }
}

let cached: string | undefined;

/** The file, beside the bundle's, where scripts/bundle-cli.mjs records their id. */
export const RECORDED_BUILD_ID_FILE = 'build-id.txt';

/** The id the bundle script recorded, or undefined when there is none to read. */
function recordedBuildId(): string | undefined {
  try {
    const text = readFileSync(join(codeRoot, RECORDED_BUILD_ID_FILE), 'utf8').trim();
    return /^[0-9a-f]{12}$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** This package's build id. */
export function buildId(): string {
  return (cached ??= (bundled ? recordedBuildId() : undefined) ?? codeHash(codeRoot, extension, !bundled));
}
