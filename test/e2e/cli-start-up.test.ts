/**
 * What every command of the built CLI loads before it knows which command runs: `--version`,
 * `--help`, a usage error, and each Tab of shell completion pay for it. The static imports of
 * dist/cli/main.js, followed through quotelake's own modules, reach yargs and two tiny packages of
 * its error messages (colours, did-you-mean): the schema library, time zones, Arrow, HTTP, S3 and
 * the queue load with the command that uses them (a dynamic import). Loading zod and luxon here
 * made each Tab 0.2 s instead of 0.13 s.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN, ROOT } from './helpers/cli.js';

/** Static import and re-export specifiers of compiled JavaScript (not `import()`). */
function staticSpecifiers(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?:[\s\S]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

/** Every package (bare specifier, not a node: builtin) the module graph from `entry` reaches statically, with a module that imports it. */
function packagesReached(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticSpecifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) todo.push(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, relative(ROOT, file));
      }
    }
  }
  return packages;
}

describe("the CLI's start-up", () => {
  it('reaches yargs, colours and did-you-mean only, before a command runs', () => {
    const reached = packagesReached(MAIN);
    expect(Object.fromEntries(reached)).toEqual({ yargs: 'dist/cli/main.js', picocolors: 'dist/cli/colors.js', 'fastest-levenshtein': 'dist/core/did-you-mean.js' });
  });

  it('the walk finds what a command module does import (it would see a static zod)', () => {
    // The parser of pipeline files is loaded by `run`, `validate`... through a dynamic import.
    expect(packagesReached(join(ROOT, 'dist/config/parse-pipeline.js')).has('zod')).toBe(true);
  });
});
