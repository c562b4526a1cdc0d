/**
 * Builds dist/ once before the tests that run the built code in a child process (crash tests,
 * CLI end-to-end tests), as `npm run build` does: tsc, then the CLI bundle. Idempotent: skipped
 * when the bundle (its metafile, written last) is newer than every file under src/ and than what
 * builds it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(dir: string, pick: (name: string) => boolean): number {
  let latest = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) latest = Math.max(latest, newest(path, pick));
    else if (pick(e.name)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export default function setup(): void {
  const bundler = join(root, 'scripts/bundle-cli.mjs');
  const src = Math.max(newest(join(root, 'src'), (n) => n.endsWith('.ts')), mtime(join(root, 'tsconfig.build.json')), mtime(bundler));
  if (mtime(join(root, 'dist/cli/quotelake.meta.json')) > src) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [bundler], { cwd: root, stdio: 'inherit' });
}
