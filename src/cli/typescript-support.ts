/**
 * Whether this Node can load a TypeScript pipeline, and the exact alternatives when it cannot.
 * Node strips types itself from 22.18 and 23.6 (22.6 to 22.17 behind --experimental-strip-types);
 * Node 20 cannot, and quotelake adds no TypeScript loader of its own. `process.features.typescript`
 * says what this process can do, whichever the version or flags.
 */
import { extname } from 'node:path';
import { UsageError } from './usage-error.js';

/** What `process.features.typescript` reports: 'strip' or 'transform' where Node loads .ts itself. */
export function nodeStripsTypes(features: { typescript?: unknown } = process.features as { typescript?: unknown }): boolean {
  return features.typescript === 'strip' || features.typescript === 'transform';
}

/** Throws the refusal (exit 2) for a .ts/.mts pipeline this Node cannot load; anything else passes. */
export function checkTypeScriptPipeline(display: string, version: string = process.version, strips: boolean = nodeStripsTypes()): void {
  const ext = extname(display).toLowerCase();
  if ((ext !== '.ts' && ext !== '.mts') || strips) return;
  const compiled = `${display.slice(0, -ext.length)}${ext === '.mts' ? '.mjs' : '.js'}`;
  throw new UsageError(
    `${display}: Node ${version} cannot load a TypeScript pipeline (it has no type stripping): run on Node 22.18 or later (or 23.6+), ` +
      `or compile it first (npx tsc --module esnext --moduleResolution bundler --target es2022 ${display}) and pass ${compiled}, or write it as .yaml`,
    'README, "TypeScript pipelines"; on Node 22.6 to 22.17, NODE_OPTIONS=--experimental-strip-types loads it too',
  );
}
