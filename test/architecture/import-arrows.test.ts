/**
 * The folder arrows of design.md ("Layout"): each folder of src/ imports only the folders it may.
 * Reads every relative import of every file under src/. There are no exceptions: an import that
 * breaks an arrow is a design change, made in design.md first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** design.md, Layout: folder → the folders it may import (besides itself). */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  config: ['core'],
  plan: ['core', 'config', 'catalog', 'api'],
  runtime: ['core', 'config', 'lake'],
  lake: ['core'],
  api: ['core', 'catalog'],
  catalog: ['core'],
  sources: ['core', 'config', 'api', 'catalog'],
  transforms: ['core', 'config'],
  sinks: ['core', 'config', 'lake'],
  coverage: ['core', 'catalog', 'lake'],
  components: ['core', 'sources', 'transforms', 'sinks'],
  emulator: ['core', 'catalog'],
  // The work queue (BullMQ on the coordinator's Redis): slices, schedules, the lake lock. The CLI
  // wires it to the run loop; it knows nothing of pipelines, the client or the lake format.
  queue: ['core'],
  // The CLI and the public barrel sit on top: they may use everything.
  cli: ['*'],
  index: ['*'],
};

function areaOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? parts[0]!.replace(/\.[jt]s$/, '') : parts[0]!;
}

/**
 * Every relative module a file's text imports: `import … from`, `export … from`, `import '…'` for
 * its effects alone, and `import('…')`, in either quotes.
 */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport\s*\(?)\s*(['"])(\.{1,2}\/[^'"]+)\1/g)].map((m) => m[2]!);
}

function importEdges(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const name of readdirSync(SRC, { recursive: true }) as string[]) {
    if (!name.endsWith('.ts')) continue;
    const file = join(SRC, name);
    const from = areaOf(file);
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const to = areaOf(resolve(dirname(file), specifier));
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), relative(SRC, file)]);
    }
  }
  return edges;
}

describe('the folder arrows of design.md', () => {
  const edges = importEdges();

  it('reads every form of a relative import, an import for its effects alone included', () => {
    const text = [
      "import { a } from '../core/a.js';",
      'import type { B } from "../config/b.js";',
      "export { c } from '../lake/c.js';",
      "export * from './d.js';",
      "import '../runtime/start.js';",
      "const e = await import('../api/e.js');",
      "import {\n  f,\n} from '../catalog/f.js';",
      "import { g } from 'yargs';",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['../core/a.js', '../config/b.js', '../lake/c.js', './d.js', '../runtime/start.js', '../api/e.js', '../catalog/f.js']);
  });

  it('every import between folders follows an arrow, with no exception', () => {
    const broken: string[] = [];
    for (const [edge, files] of edges) {
      const [from, to] = edge.split(' -> ') as [string, string];
      const allowed = MAY_IMPORT[from];
      expect(allowed, `src/${from} is not a folder design.md names`).toBeDefined();
      if (allowed!.includes('*') || allowed!.includes(to)) continue;
      broken.push(`${edge} (${[...new Set(files)].join(', ')})`);
    }
    expect(broken).toEqual([]);
  });

  it('the emulator never imports the client: the two sides meet only at the wire', () => {
    expect(edges.get('emulator -> api')).toBeUndefined();
  });
});
