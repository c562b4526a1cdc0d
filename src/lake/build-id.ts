/**
 * A short id of the code that runs: the first 12 hex digits of a sha256 over every module of the
 * package (path and content, sorted by path; `dist/**\/*.js` when installed or built, `src/**\/*.ts`
 * when run from the sources, as the tests do). Same code, same id, however it was obtained (a git
 * clone, `npm ci`, a tarball): nothing is recorded at build time, so nothing can go stale, and an
 * edit not yet committed still changes it. Computed once per thread, on first use (a few ms).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = import.meta.url;
// This file is src/lake/build-id.ts or dist/lake/build-id.js: the code root is one level up.
const codeRoot = fileURLToPath(new URL('../', here));
const extension = here.endsWith('.ts') ? '.ts' : '.js';

/** The id of the modules ending in `ext` under `root` (see above); `unknown` when none can be read. */
export function codeHash(root: string, ext: string): string {
  try {
    const files = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts'))
      .map((f) => f.split('\\').join('/'))
      .sort();
    if (files.length === 0) return 'unknown';
    const hash = createHash('sha256');
    // Line endings normalised: a checkout with CRLF is the same code.
    for (const f of files) hash.update(`${f}\0${readFileSync(join(root, f), 'utf8').replace(/\r\n/g, '\n')}\0`);
    return hash.digest('hex').slice(0, 12);
  } catch {
    return 'unknown';
  }
}

let cached: string | undefined;

/** This package's build id. */
export function buildId(): string {
  return (cached ??= codeHash(codeRoot, extension));
}
