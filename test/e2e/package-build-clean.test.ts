/**
 * What `npm pack` ships under dist/ comes from today's src/: the build empties dist/ first, since
 * tsc never deletes the module of a source file that was removed or renamed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers/cli.js';

const CLEAN = join(ROOT, 'scripts/clean-dist.mjs');

/** The files `npm pack` would put in the tarball (no script runs: dist/ is left as the tests use it). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
}

describe('the build starts from an empty dist/', () => {
  it('`npm run build` runs the clean script before tsc', () => {
    const build = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build;
    expect(build.split(' && ')[0]).toBe('node scripts/clean-dist.mjs');
  });

  it('the clean script removes a module whose source is gone, and only dist/', () => {
    const root = tempDir('ql-clean-dist-');
    mkdirSync(join(root, 'dist/plan'), { recursive: true });
    writeFileSync(join(root, 'dist/plan/poll-rounds.js'), 'export {};\n');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/index.ts'), 'export {};\n');
    execFileSync(process.execPath, [CLEAN, root]);
    expect(existsSync(join(root, 'dist'))).toBe(false);
    expect(existsSync(join(root, 'src/index.ts'))).toBe(true);
  });

  it('every module the package ships under dist/ has its source file (the bundle aside)', () => {
    const orphans = packedFiles()
      .filter((p) => p.startsWith('dist/') && p.endsWith('.js') && !p.startsWith('dist/cli/chunk-'))
      .filter((p) => p !== 'dist/cli/quotelake.js' && p !== 'dist/cli/encode-worker.js')
      .filter((p) => !existsSync(join(ROOT, p.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'))));
    expect(orphans).toEqual([]);
  }, 60_000);
});
