/**
 * Whether this Node can load a TypeScript pipeline, and the exact alternatives when it cannot.
 * Node strips types itself from 22.18 and 23.6 (22.6 to 22.17 behind --experimental-strip-types);
 * Node 20 cannot, and quotelake adds no TypeScript loader of its own. `process.features.typescript`
 * says what this process can do, whichever the version or flags.
 */
import { extname } from 'node:path';
import { typeScriptRefusal } from '../config/typescript-pipeline.js';
import { UsageError } from './usage-error.js';

/** What `process.features.typescript` reports: 'strip' or 'transform' where Node loads .ts itself. */
export function nodeStripsTypes(features: { typescript?: unknown } = process.features as { typescript?: unknown }): boolean {
  return features.typescript === 'strip' || features.typescript === 'transform';
}

/** Throws the refusal (exit 2) for a .ts/.mts pipeline this Node cannot load; anything else passes. */
export function checkTypeScriptPipeline(display: string, version: string = process.version, strips: boolean = nodeStripsTypes()): void {
  const ext = extname(display).toLowerCase();
  if ((ext !== '.ts' && ext !== '.mts') || strips) return;
  const { message, hint } = typeScriptRefusal(display, version);
  throw new UsageError(`${display}: ${message}`, hint);
}
