/**
 * Builds dist/ once before the tests that run the built code in a child process (crash tests,
 * CLI end-to-end tests). Idempotent: skipped when dist/ is newer than every file under src/.
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

export default function setup(): void {
  const src = Math.max(newest(join(root, 'src'), (n) => n.endsWith('.ts')), statSync(join(root, 'tsconfig.build.json')).mtimeMs);
  const dist = newest(join(root, 'dist'), (n) => n.endsWith('.js'));
  if (dist > src) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
