/**
 * The package's public types compile in a consumer that checks libraries (skipLibCheck false):
 * every package a published declaration file reachable from dist/index.d.ts imports must bring
 * its types with the package's dependencies, not its devDependencies (which a consumer never
 * installs). @types/luxon was a devDependency while a public .d.ts imported luxon's IANAZone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** Bare module names imported (statically or by `import("…")` types) by the .d.ts files reachable from `entry`. */
function publicImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\()\s*'([^']+)'/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec.replace(/\.js$/, '.d.ts')));
      else if (!spec.startsWith('node:')) bare.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return bare;
}

/** Whether the package declares its own types (else they come from @types/<name>). */
function shipsTypes(name: string): boolean {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { types?: string; typings?: string; exports?: unknown };
  return manifest.types !== undefined || manifest.typings !== undefined || /"types"\s*:/.test(JSON.stringify(manifest.exports ?? null));
}

describe('the published types', () => {
  it('import only packages whose types are among the dependencies', () => {
    const imports = [...publicImports(join(ROOT, 'dist/index.d.ts'))].sort();
    expect(imports.length).toBeGreaterThan(0);
    const missing = imports.filter((name) => !(name in pkg.dependencies && shipsTypes(name)) && !(`@types/${name.replace(/^@([^/]+)\//, '$1__')}` in pkg.dependencies));
    expect(missing).toEqual([]);
  });
});
