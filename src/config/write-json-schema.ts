/**
 * Writes pipeline.schema.json at the repo root from the real registry.
 * Run: `npm run build && node -e "import('./dist/config/write-json-schema.js').then(m => m.writeJsonSchema())"`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { components } from '../components.js';
import { pipelineJsonSchemaText } from './pipeline-json-schema.js';

/** The committed schema file: `<repo>/pipeline.schema.json` (this file sits in src/config or dist/config). */
export const JSON_SCHEMA_PATH = fileURLToPath(new URL('../../pipeline.schema.json', import.meta.url));

export async function writeJsonSchema(path: string = JSON_SCHEMA_PATH): Promise<{ path: string; changed: boolean }> {
  const text = pipelineJsonSchemaText(components);
  const before = await readFile(path, 'utf8').catch(() => '');
  if (before !== text) await writeFile(path, text);
  return { path, changed: before !== text };
}
