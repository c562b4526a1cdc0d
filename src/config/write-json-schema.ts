/**
 * Writes pipeline.schema.json at the repo root, and the pipeline reference inside README.md, from a
 * registry given by the caller (config sits below the components; `npm run schema` passes the real
 * one, src/components.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Registry } from './pipeline-schema.js';
import { pipelineJsonSchemaText } from './pipeline-json-schema.js';
import { withPipelineReference } from './pipeline-reference.js';

/** The committed schema file: `<repo>/pipeline.schema.json` (this file sits in src/config or dist/config). */
export const JSON_SCHEMA_PATH = fileURLToPath(new URL('../../pipeline.schema.json', import.meta.url));

/** The README whose pipeline reference is generated. */
export const README_PATH = fileURLToPath(new URL('../../README.md', import.meta.url));

export async function writePipelineReference(registry: Registry, path: string = README_PATH): Promise<{ path: string; changed: boolean }> {
  const before = await readFile(path, 'utf8');
  const text = withPipelineReference(before, registry);
  if (before !== text) await writeFile(path, text);
  return { path, changed: before !== text };
}

export async function writeJsonSchema(registry: Registry, path: string = JSON_SCHEMA_PATH): Promise<{ path: string; changed: boolean }> {
  const text = pipelineJsonSchemaText(registry);
  const before = await readFile(path, 'utf8').catch(() => '');
  if (before !== text) await writeFile(path, text);
  return { path, changed: before !== text };
}
