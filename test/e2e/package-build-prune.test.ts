/**
 * What `npm pack` ships under dist/ comes from today's src/: the build deletes what tsc wrote for a
 * source file that is gone (tsc never does), and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, allFiles, tempDir } from './helpers/cli.js';

const PRUNE = join(ROOT, 'scripts/prune-dist.mjs');

/** The files `npm pack` would put in the tarball (no script runs: dist/ is left as the tests use it). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
}

function touch(root: string, path: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), 'export {};\n');
}

describe('the build prunes dist/ of modules whose source is gone', () => {
  it('`npm run build` prunes after tsc, before the bundle', () => {
    const build = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build;
    expect(build).toBe('tsc -p tsconfig.build.json && node scripts/prune-dist.mjs && node scripts/bundle-cli.mjs');
  });

  it('deletes the .js, .d.ts and .map of a removed source file, and its emptied folder; keeps the rest and the bundle', () => {
    const root = tempDir('ql-prune-dist-');
    for (const src of ['src/index.ts', 'src/plan/index.ts', 'src/cli/bin.ts']) touch(root, src);
    const kept = ['dist/index.js', 'dist/index.d.ts', 'dist/index.js.map', 'dist/plan/index.js', 'dist/cli/bin.js', 'dist/cli/quotelake.js', 'dist/cli/quotelake.js.map', 'dist/cli/encode-worker.js', 'dist/cli/chunk-ABC.js', 'dist/cli/quotelake.meta.json'];
    const gone = ['dist/plan/poll-rounds.js', 'dist/plan/poll-rounds.d.ts', 'dist/plan/poll-rounds.js.map', 'dist/old/shell-word.js'];
    for (const path of [...kept, ...gone]) touch(root, path);
    execFileSync(process.execPath, [PRUNE, root]);
    expect(allFiles(join(root, 'dist')).map((f) => relative(root, f)).sort()).toEqual([...kept].sort());
    expect(existsSync(join(root, 'dist/old'))).toBe(false);
  });

  it('every module the package ships under dist/ has its source file (the bundle aside)', () => {
    const orphans = packedFiles()
      .filter((p) => p.startsWith('dist/') && p.endsWith('.js') && !p.startsWith('dist/cli/chunk-'))
      .filter((p) => p !== 'dist/cli/quotelake.js' && p !== 'dist/cli/encode-worker.js')
      .filter((p) => !existsSync(join(ROOT, p.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts'))));
    expect(orphans).toEqual([]);
  }, 60_000);
});
